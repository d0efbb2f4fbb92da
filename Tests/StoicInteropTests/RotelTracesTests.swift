import Foundation
import StoicCollector
import StoicForwarding
import StoicStore
import StoicTelemetry
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The forwarder's traces through Rotel (`rotel-agent`): spans written into a span spool are
/// forwarded as OTLP/HTTP, protobuf and JSON, to Rotel's receiver, which accepts them and
/// exports them to the example collector; every span arrives with its parent and trace.
@Suite(
  "Interop: the forwarder's traces through Rotel to the example collector", .serialized,
  .enabled(if: Peers.binariesRun, Peers.platformReason))
struct RotelTracesTests {
  static let spans = 200

  @Test("protobuf and JSON: every span through Rotel arrives, with its parent", arguments: [0, 1])
  func tracesThroughRotel(_ variant: Int) async throws {
    let encoding: OTLPEncoding = variant == 0 ? .protobuf : .json
    let directory = try Peers.scratch("rotel-traces-\(variant)")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Peers.collector(directory + "/collector")
    let port = try Peers.freePort()
    let rotel = try await RotelTests.rotel(
      try Peers.rotelAgent(), port: port, grpcPort: try Peers.freePort(), collector: collector,
      gzip: true)

    var options = TelemetryOptions()
    options.spans = LogSpoolOptions()
    let spool = try TelemetrySpool.open(at: directory + "/spool", options: options)
    let spans = try #require(spool.spans)
    let trace = TraceID(high: 0xABCD, low: UInt64(variant + 1))
    for index in 0..<Self.spans {
      let start = SpanStart(
        traceID: trace, spanID: SpanID(UInt64(index + 1)),
        parentSpanID: SpanID(index == 0 ? 0 : 1), name: "span \(index)",
        startTimeNanoseconds: 1_700_000_000_000_000_000 + Int64(index))
      spans.start(start)
      spans.end(
        SpanEnd(
          start: start, endTimeNanoseconds: start.startTimeNanoseconds + 1_000,
          attributes: ["index": .int(Int64(index))]))
    }
    let exporter = try OTLPExporter(
      configuration: OTLPExporterConfiguration(
        endpoint: "http://127.0.0.1:\(port)", encoding: encoding))
    var forwarderOptions = ForwarderOptions()
    forwarderOptions.maxRecords = 64
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: exporter, options: forwarderOptions)
    let report = try await forwarder.drain()
    try await forwarder.close()
    try spool.close()
    let arrived = try await Peers.eventually(seconds: 30) {
      try collector.archive.spans().count >= Self.spans
    }
    let stored = try collector.archive.spans()
    let stats = try await Peers.stats(collector)
    _ = await rotel.stop(SIGTERM)
    try await collector.stop()

    #expect(report.spansDelivered == Self.spans, "\(report)")
    #expect(arrived, "\(stored.count) of \(Self.spans) spans arrived")
    #expect(Set(stored.map(\.span.spanId)).count == Self.spans)
    #expect(stored.allSatisfy { $0.span.traceId == trace.bytes })
    #expect(
      stored.filter { $0.span.name != "span 0" }.allSatisfy {
        $0.span.parentSpanId == SpanID(1).bytes
      })
    #expect(stats["rejectedRequests"] as? Int == 0, "\(stats)")
  }
}
