import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// Trace correlation: swift-otel's metadata keys fill the OTLP record's trace fields.
@Suite("Trace correlation")
struct TraceCorrelationTests {
  static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
  static let spanID = "00f067aa0ba902b7"

  static func record(_ metadata: LogMetadata) -> LogRecord {
    LogRecord(
      sequence: 1, timeNanoseconds: 5, level: .info, label: "app", message: "m",
      metadata: metadata)
  }

  @Test("well-formed trace_id, span_id, trace_flags fill trace_id (16), span_id (8), flags")
  func wellFormed() {
    let mapped = LogRecordMapping.otlp(
      Self.record([
        "trace_id": .stringConvertible(Self.traceID), "span_id": .string(Self.spanID),
        "trace_flags": .string("1"), "user": .string("u"),
      ]))
    #expect(mapped.traceId.count == 16 && mapped.spanId.count == 8)
    #expect(mapped.traceId.prefix(2) == [0x4B, 0xF9] && mapped.traceId.last == 0x36)
    #expect(mapped.spanId == [0x00, 0xF0, 0x67, 0xAA, 0x0B, 0xA9, 0x02, 0xB7])
    #expect(mapped.flags == 1)
    for key in ["trace_id", "span_id", "trace_flags"] { #expect(mapped.attribute(key) == nil) }
    #expect(mapped.string("user") == "u")
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var metadata: LogMetadata
    var movesTrace: Bool
    var keepsFlags: Bool
    var testDescription: String { "\(metadata)" }
  }

  @Test(
    "malformed values stay plain attributes",
    arguments: [
      Malformed(
        metadata: ["trace_id": .string(String(traceID.dropLast())), "span_id": .string(spanID)],
        movesTrace: false, keepsFlags: false),
      Malformed(
        metadata: ["trace_id": .string(traceID + "00"), "span_id": .string(spanID)],
        movesTrace: false, keepsFlags: false),
      Malformed(
        metadata: ["trace_id": .string(traceID), "span_id": .string("00f067aa0ba902bz")],
        movesTrace: false, keepsFlags: false),
      Malformed(
        metadata: [
          "trace_id": .string(String(repeating: "0", count: 32)), "span_id": .string(spanID),
        ], movesTrace: false, keepsFlags: false),
      Malformed(metadata: ["trace_id": .string(traceID)], movesTrace: false, keepsFlags: false),
      Malformed(
        metadata: ["trace_id": .dictionary(["x": .string("y")]), "span_id": .string(spanID)],
        movesTrace: false, keepsFlags: false),
      Malformed(
        metadata: [
          "trace_id": .string(traceID), "span_id": .string(spanID), "trace_flags": .string("300"),
        ], movesTrace: true, keepsFlags: true),
      Malformed(
        metadata: [
          "trace_id": .string(traceID), "span_id": .string(spanID), "trace_flags": .string("0x1"),
        ], movesTrace: true, keepsFlags: true),
    ])
  func malformed(_ row: Malformed) {
    let mapped = LogRecordMapping.otlp(Self.record(row.metadata))
    if row.movesTrace {
      #expect(mapped.traceId.count == 16 && mapped.spanId.count == 8)
      #expect(mapped.attribute("trace_id") == nil && mapped.attribute("span_id") == nil)
    } else {
      #expect(mapped.traceId.isEmpty && mapped.spanId.isEmpty)
      for key in row.metadata.keys { #expect(mapped.attribute(key) != nil, "\(key)") }
    }
    #expect(mapped.flags == 0)
    #expect((mapped.attribute("trace_flags") != nil) == (row.keepsFlags))
  }

  @Test("keys are configurable; nil keeps everything as attributes")
  func configurableKeys() {
    let metadata: LogMetadata = ["tid": .string(Self.traceID), "sid": .string(Self.spanID)]
    let custom = LogRecordMapping.otlp(
      Self.record(metadata),
      traceContext: TraceContextKeys(traceID: "tid", spanID: "sid", traceFlags: "tf"))
    #expect(custom.traceId.count == 16 && custom.attribute("tid") == nil)
    let standard = LogRecordMapping.otlp(Self.record(metadata))
    #expect(standard.traceId.isEmpty && standard.string("tid") == Self.traceID)
    let off = LogRecordMapping.otlp(
      Self.record(["trace_id": .string(Self.traceID), "span_id": .string(Self.spanID)]),
      traceContext: nil)
    #expect(off.traceId.isEmpty && off.string("trace_id") == Self.traceID)
  }

  @Test("the direct protobuf path gives the model's bytes for traced records, twice the same")
  func directPathMatches() throws {
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    defer { try? spool.close() }
    let flags = ["1", "0", "300", "x"]
    for index in 0..<12 {
      var metadata: LogMetadata = ["seq": .string(String(index))]
      if index % 3 != 2 { metadata["trace_id"] = .string(index % 4 == 3 ? "zz" : Self.traceID) }
      if index % 2 == 0 { metadata["span_id"] = .stringConvertible(Self.spanID) }
      metadata["trace_flags"] = .string(flags[index % flags.count])
      spool.logs.log(level: .info, label: "app", message: "m\(index)", metadata: metadata)
    }
    try spool.flush()
    let source = SpoolBatchSource(spool: spool, options: ForwarderFixture.options())
    let range = SpoolRange(stream: .logs, first: 1, last: spool.logs.lastSequence)
    let direct = try source.logsProtobuf(range)
    let model = try source.logsRequest(range)
    #expect(direct.body == model.request.encoded(as: .protobuf))
    #expect(try source.logsProtobuf(range).body == direct.body)
    let records = model.request.resourceLogs.flatMap(\.scopeLogs).flatMap(\.logRecords)
    #expect(records.filter { $0.traceId.count == 16 }.count > 0)
    #expect(records.filter { $0.traceId.isEmpty && $0.attribute("trace_id") != nil }.count > 0)
  }
}
