import Testing

@testable import StoicCollector
@testable import StoicForwarding

/// The collector's fast readers of OTLP's `LogRecord` (the JSON to protobuf walk and the
/// protobuf check-and-count walk) held to the one field table (``OTLPLogRecordField``) that
/// the forwarding side's writers are held to in `StoicForwardingTests`.
@Suite("OTLP log record field table, the collector's readers")
struct OTLPLogRecordFieldReaderTests {
  /// A request of one record with every field of the table set, one attribute.
  static let request = OTLP.ExportLogsServiceRequest(resourceLogs: [
    OTLP.ResourceLogs(scopeLogs: [
      OTLP.ScopeLogs(logRecords: [
        OTLP.LogRecord(
          timeUnixNano: 5, observedTimeUnixNano: 6, severityNumber: .warn, severityText: "WARN",
          body: .string("hi"), attributes: [OTLP.KeyValue("k", .string("v"))],
          droppedAttributesCount: 2, flags: 1, traceId: Array(repeating: 0xAB, count: 16),
          spanId: Array(repeating: 0xCD, count: 8))
      ])
    ])
  ])

  @Test("every field of the table is set in the record the readers are given")
  func recordSetsEveryField() throws {
    let bytes = Self.request.encoded(as: .protobuf)
    var numbers: Set<Int> = []
    var reader = ProtobufReader(bytes)
    // Request → ResourceLogs → ScopeLogs → LogRecord: no resource or scope is set, so each
    // level's first field is the one repeated message it holds.
    for _ in 0..<3 {
      let (_, wireType) = try #require(try reader.nextField())
      #expect(wireType == .lengthDelimited)
      reader = try reader.message()
    }
    while let (number, wireType) = try reader.nextField() {
      numbers.insert(number)
      try reader.skip(wireType, field: number)
    }
    #expect(numbers == Set(OTLPLogRecordField.allCases.map(\.number)))
  }

  @Test("the JSON walk and the protobuf walk take every field to the model's bytes")
  func fastReaders() throws {
    let transcoded = try #require(
      OTLPLogsJSONTranscoder.transcode(Self.request.encoded(as: .json)))
    #expect(transcoded.protobuf == Self.request.encoded(as: .protobuf))
    let summary = try OTLPLogsProtobufSummary.summarize(Self.request.encoded(as: .protobuf))
    #expect(summary.map(\.logRecords) == [1])
  }
}
