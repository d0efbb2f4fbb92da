import StoicTelemetry
import Testing

@testable import StoicForwarding

/// Every writer and reader of OTLP's `LogRecord` held to its one field table
/// (``OTLPLogRecordField``): a record with every field set is written with the table's numbers,
/// wire types and JSON keys, in its order, by the model's codecs and by the fast writers from
/// the spool (the collector's fast readers are held to it in `StoicCollectorTests`).
@Suite("OTLP log record field table")
struct OTLPLogRecordFieldTests {
  /// A record with every field of the table set, one attribute.
  static let full = OTLP.LogRecord(
    timeUnixNano: 5, observedTimeUnixNano: 6, severityNumber: .warn, severityText: "WARN",
    body: .string("hi"), attributes: [OTLP.KeyValue("k", .string("v"))],
    droppedAttributesCount: 2, flags: 1, traceId: Array(repeating: 0xAB, count: 16),
    spanId: Array(repeating: 0xCD, count: 8))

  static func request(_ record: OTLP.LogRecord) -> OTLP.ExportLogsServiceRequest {
    OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(scopeLogs: [OTLP.ScopeLogs(logRecords: [record])])
    ])
  }

  /// The (number, wire type) of each top-level field of a `LogRecord` message, in order.
  static func protobufFields(_ bytes: [UInt8]) throws -> [(Int, ProtobufWireType)] {
    var reader = ProtobufReader(bytes)
    var fields: [(Int, ProtobufWireType)] = []
    while let (number, wireType) = try reader.nextField() {
      fields.append((number, wireType))
      try reader.skip(wireType, field: number)
    }
    return fields
  }

  /// The keys of a `LogRecord` JSON object, in order.
  static func jsonKeys(_ bytes: [UInt8]) throws -> [String] {
    var reader = JSONReader(bytes)
    var keys: [String] = []
    try reader.beginObject()
    while let key = try reader.nextKey() {
      keys.append(key)
      try reader.skipValue()
    }
    return keys
  }

  static var tableFields: [(Int, ProtobufWireType)] {
    OTLPLogRecordField.allCases.map { ($0.number, $0.wireType) }
  }

  static var tableKeys: [String] { OTLPLogRecordField.allCases.map { "\($0.jsonKey)" } }

  @Test("the model writes every field with the table's number, wire type and key, in order")
  func modelWriters() throws {
    var protobuf = ProtobufWriter(capacity: 256)
    OTLPLogsProtobuf.write(Self.full, to: &protobuf)
    var bytes: [UInt8] = []
    protobuf.bytes.copy(appendingTo: &bytes)
    let fields = try Self.protobufFields(bytes)
    #expect(fields.map(\.0) == Self.tableFields.map(\.0))
    #expect(fields.map(\.1) == Self.tableFields.map(\.1))
    var json: [UInt8] = []
    JSONWriter.append(to: &json) { OTLPLogsJSON.write(Self.full, to: &$0) }
    #expect(try Self.jsonKeys(json) == Self.tableKeys)
    // And reads them back, in both encodings.
    let request = Self.request(Self.full)
    #expect(try OTLP.ExportLogsServiceRequest(protobuf: request.encoded(as: .protobuf)) == request)
    #expect(try OTLP.ExportLogsServiceRequest(json: request.encoded(as: .json)) == request)
  }

  @Test("the spool's fast writers write the table's fields, in order")
  func fastWriters() throws {
    let record = LogRecord(
      sequence: 3, timeNanoseconds: 5, level: .warning, label: "l", message: "hi",
      metadata: [
        "trace_id": .string(String(repeating: "ab", count: 16)),
        "span_id": .string(String(repeating: "cd", count: 8)),
        "trace_flags": .string("1"),
        // A key Stoic derives from the record: dropped, so the count is written.
        "log.label": .string("other"),
      ])
    let encoded = LogRecordFormat.encode(record)
    try encoded.withUnsafeBytes { bytes in
      var metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []
      let fields = try #require(LogRecordFormat.fields(of: bytes, metadata: &metadata))
      var protobuf = ProtobufWriter(capacity: 256)
      LogRecordMapping.writeProtobuf(fields, sequence: 3, metadata: metadata, to: &protobuf)
      var written: [UInt8] = []
      protobuf.bytes.copy(appendingTo: &written)
      // Every field once but the attributes, which repeat: the table's order either way.
      var seen: [(Int, ProtobufWireType)] = []
      for field in try Self.protobufFields(written) where seen.last?.0 != field.0 {
        seen.append(field)
      }
      #expect(seen.map(\.0) == Self.tableFields.map(\.0))
      #expect(seen.map(\.1) == Self.tableFields.map(\.1))
      var json = JSONWriter(capacity: 256)
      LogRecordMapping.writeJSON(fields, sequence: 3, metadata: metadata, to: &json)
      var text: [UInt8] = []
      json.bytes.copy(appendingTo: &text)
      #expect(try Self.jsonKeys(text) == Self.tableKeys)
    }
  }

  @Test("a key or a number finds its field; another wire type or key finds none")
  func lookups() {
    for field in OTLPLogRecordField.allCases {
      #expect(OTLPLogRecordField(jsonKey: "\(field.jsonKey)") == field)
      #expect(OTLPLogRecordField(number: field.number, wireType: field.wireType) == field)
      let other: ProtobufWireType = field.wireType == .varint ? .fixed64 : .varint
      #expect(OTLPLogRecordField(number: field.number, wireType: other) == nil)
      var near = "\(field.jsonKey)"
      near.removeLast()
      near += "X"
      #expect(OTLPLogRecordField(jsonKey: near) == nil)
    }
    #expect(OTLPLogRecordField(number: 4, wireType: .lengthDelimited) == nil)
    #expect(OTLPLogRecordField(jsonKey: "eventName") == nil)
  }
}
