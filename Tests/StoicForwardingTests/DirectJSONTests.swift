import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// The forwarder writes a batch's OTLP JSON straight from the spool's encoded records, as it
/// writes protobuf; the receiver must get exactly the bytes the OTLP model's JSON encoder gives
/// for the same records (a batch resent after an upgrade carries the same body under the same
/// key).
@Suite("Log records from spool bytes to JSON")
struct DirectJSONTests {
  @Test(
    "the same bytes as the model's encoder, for flat, nested and non-ASCII metadata",
    arguments: [ForwarderOptions.CodeAttributes.current, .currentAndDeprecated])
  func sameBytesAsTheModel(codeAttributes: ForwarderOptions.CodeAttributes) throws {
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    defer { try? spool.close() }
    DirectProtobufTests.fill(spool)
    // Characters JSON escapes, in the message, a key and a value.
    spool.logs.log(
      level: .error, label: "a\"b", message: "line\nbreak\t\"quoted\" \\ \u{1} \u{7F}",
      metadata: ["k\"ey": .string("v\\al\u{1F}ue")], file: "F.swift", function: "g()", line: 7)
    try spool.flush()
    var options = ForwarderFixture.options()
    options.codeAttributes = codeAttributes
    let source = SpoolBatchSource(spool: spool, options: options)
    let last = spool.logs.lastSequence
    for range in [
      SpoolRange(stream: .logs, first: 1, last: last),
      SpoolRange(stream: .logs, first: 7, last: 9),
      SpoolRange(stream: .logs, first: last, last: last),
    ] {
      let direct = try source.logsJSON(range)
      let model = try source.logsRequest(range)
      let expected = model.request.encoded(as: .json)
      #expect(
        direct.body == expected,
        Comment(
          rawValue: "\(range): \(String(decoding: direct.body, as: UTF8.self))\n"
            + "\(String(decoding: expected, as: UTF8.self))"))
      #expect(direct.records == model.records)
      #expect(direct.records == Int(range.last - range.first + 1))
      #expect(direct.unreadable == 0)
      #expect(try OTLP.ExportLogsServiceRequest(decoding: direct.body, as: .json) == model.request)
    }
  }

  @Test("traced records: trace and span ids move out of the attributes, as the model does")
  func tracedRecords() throws {
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    defer { try? spool.close() }
    let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    let spanID = "00f067aa0ba902b7"
    let flags = ["1", "0", "300", "x"]
    for index in 0..<12 {
      var metadata: LogMetadata = ["seq": .string(String(index))]
      if index % 3 != 2 { metadata["trace_id"] = .string(index % 4 == 3 ? "zz" : traceID) }
      if index % 2 == 0 { metadata["span_id"] = .stringConvertible(spanID) }
      metadata["trace_flags"] = .string(flags[index % flags.count])
      spool.logs.log(level: .info, label: "app", message: "m\(index)", metadata: metadata)
    }
    try spool.flush()
    let source = SpoolBatchSource(spool: spool, options: ForwarderFixture.options())
    let range = SpoolRange(stream: .logs, first: 1, last: spool.logs.lastSequence)
    let direct = try source.logsJSON(range)
    let model = try source.logsRequest(range)
    #expect(direct.body == model.request.encoded(as: .json))
    let records = model.request.resourceLogs.flatMap(\.scopeLogs).flatMap(\.logRecords)
    #expect(records.filter { $0.traceId.count == 16 }.count > 0)
    #expect(records.filter { $0.flags != 0 }.count > 0)
  }

  @Test("an exporter takes a JSON body only when it sends JSON")
  func exporterChecksTheEncoding() throws {
    let json = try OTLPExporter(
      configuration: OTLPExporterConfiguration(
        endpoint: "http://127.0.0.1:4318", encoding: .json, compression: .none))
    #expect(try json.encode(json: Array("{}".utf8), signal: .logs).bytes == Array("{}".utf8))
    let protobuf = try OTLPExporter(
      configuration: OTLPExporterConfiguration(
        endpoint: "http://127.0.0.1:4318", encoding: .protobuf, compression: .none))
    #expect(throws: ForwardingError.self) {
      try protobuf.encode(json: Array("{}".utf8), signal: .logs)
    }
  }
}
