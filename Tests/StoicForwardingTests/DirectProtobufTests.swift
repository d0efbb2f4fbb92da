import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// The forwarder writes a batch's protobuf straight from the spool's encoded records; the
/// receiver must get exactly the bytes the OTLP model's encoder gives for the same records
/// (a batch resent after an upgrade carries the same body under the same key).
@Suite("Log records from spool bytes to protobuf")
struct DirectProtobufTests {
  /// Records of every shape the direct path takes, and the shapes it hands to the decoder.
  static func fill(_ spool: TelemetrySpool) {
    let levels = LogLevel.allCases
    for index in 0..<40 {
      var metadata: LogMetadata = [:]
      for key in ["zeta", "alpha", "m", "Mid", "a_b", "a.b", "b", "0"].prefix(index % 9) {
        metadata[key] =
          index % 2 == 0 ? .string("v\(index)-\(key)") : .stringConvertible("\(index)")
      }
      if index % 5 == 1 { metadata[""] = .string("empty key") }
      if index % 7 == 2 { metadata["uni"] = .string("é😀 \u{0}") }
      if index % 11 == 3 { metadata["clé"] = .string("a key beyond ASCII") }
      if index % 13 == 4 { metadata["nested"] = .dictionary(["x": .array([.string("1")])]) }
      spool.logs.log(
        level: levels[index % levels.count], label: index % 3 == 0 ? "" : "app.\(index)",
        message: index % 4 == 0 ? "" : String(repeating: "message é ", count: index * 3),
        metadata: metadata, source: index % 2 == 0 ? "" : "module",
        file: index % 3 == 1 ? "" : "File.swift", function: index % 5 == 0 ? "" : "f(_:)",
        line: UInt(index * 1000))
    }
  }

  @Test(
    "the same bytes as the model's encoder, for flat, nested and non-ASCII metadata",
    arguments: [ForwarderOptions.CodeAttributes.current, .currentAndDeprecated])
  func sameBytesAsTheModel(codeAttributes: ForwarderOptions.CodeAttributes) throws {
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    defer { try? spool.close() }
    Self.fill(spool)
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
      let direct = try source.logsProtobuf(range)
      let model = try source.logsRequest(range)
      #expect(direct.body == model.request.encoded(as: .protobuf), "\(range)")
      #expect(direct.records == model.records)
      #expect(direct.records == Int(range.last - range.first + 1))
      #expect(direct.unreadable == 0)
    }
  }

  @Test("flat records are read without decoding; nested or non-ASCII keys are left to it")
  func fieldsOfFlatRecordsOnly() throws {
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    defer { try? spool.close() }
    Self.fill(spool)
    try spool.flush()
    var direct = 0
    var decoded = 0
    var metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []
    try spool.logs.forEachEncodedRecord { (sequence, bytes) in
      let record = try? LogRecordFormat.decode(bytes, sequence: sequence)
      let hasNested = record?.metadata.values.contains {
        if case .dictionary = $0 { return true }
        if case .array = $0 { return true }
        return false
      }
      let flat =
        record != nil && hasNested == false
        && record?.metadata.keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } == true
      let fields = LogRecordFormat.fields(of: bytes, metadata: &metadata)
      #expect((fields != nil) == flat, "record \(sequence)")
      if let fields, let record {
        direct += 1
        #expect(fields.level == record.level)
        #expect(String(decoding: fields.message, as: UTF8.self) == record.message)
        #expect(String(decoding: fields.label, as: UTF8.self) == record.label)
        #expect(UInt(fields.line) == record.line)
        let keys = metadata.map { String(decoding: $0.key, as: UTF8.self) }
        #expect(keys == record.metadata.keys.sorted())
      } else {
        decoded += 1
      }
    }
    #expect(direct > 20)
    #expect(decoded > 3)
  }
}
