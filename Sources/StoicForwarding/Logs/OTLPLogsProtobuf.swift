/// The protobuf encoding of `opentelemetry/proto/logs/v1/logs.proto`'s `LogRecord`, with the
/// field numbers of that file. Fields are written in field-number order, as protoc's encoders
/// write them. The request's nesting (`ExportLogsServiceRequest`, `ResourceLogs`, `ScopeLogs`)
/// and the response are every signal's, in ``OTLPCommonProtobuf``.
enum OTLPLogsProtobuf {
  /// `LogRecord`.
  enum LogRecordField {
    static let timeUnixNano = 1  // fixed64
    static let severityNumber = 2  // enum SeverityNumber
    static let severityText = 3
    static let body = 5  // AnyValue
    static let attributes = 6  // repeated KeyValue
    static let droppedAttributesCount = 7
    static let flags = 8  // fixed32
    static let traceId = 9  // bytes
    static let spanId = 10  // bytes
    static let observedTimeUnixNano = 11  // fixed64
  }

  // MARK: Writing

  static func write(_ record: OTLP.LogRecord, to writer: inout ProtobufWriter) {
    writer.fixed64(LogRecordField.timeUnixNano, record.timeUnixNano)
    writer.int32(LogRecordField.severityNumber, record.severityNumber.rawValue)
    writer.string(LogRecordField.severityText, record.severityText)
    if let body = record.body {
      let slot = writer.beginMessage(LogRecordField.body)
      OTLPCommonProtobuf.write(body, to: &writer)
      writer.endMessage(slot)
    }
    OTLPCommonProtobuf.writeAttributes(LogRecordField.attributes, record.attributes, to: &writer)
    writer.uint64(LogRecordField.droppedAttributesCount, UInt64(record.droppedAttributesCount))
    writer.fixed32(LogRecordField.flags, record.flags)
    writer.bytes(LogRecordField.traceId, record.traceId)
    writer.bytes(LogRecordField.spanId, record.spanId)
    writer.fixed64(LogRecordField.observedTimeUnixNano, record.observedTimeUnixNano)
  }

  // MARK: Reading

  static func readLogRecord(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.LogRecord
  {
    var record = OTLP.LogRecord()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (LogRecordField.timeUnixNano, .fixed64):
        record.timeUnixNano = try reader.fixed64()
      case (LogRecordField.severityNumber, .varint):
        record.severityNumber = OTLP.SeverityNumber(
          rawValue: Int32(truncatingIfNeeded: try reader.varint()))
      case (LogRecordField.severityText, .lengthDelimited):
        record.severityText = try reader.string()
      case (LogRecordField.body, .lengthDelimited):
        var body = record.body ?? .empty
        record.body = nil
        var message = try reader.message()
        try OTLPCommonProtobuf.merge(&body, from: &message)
        record.body = body
      case (LogRecordField.attributes, .lengthDelimited):
        record.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (LogRecordField.droppedAttributesCount, .varint):
        record.droppedAttributesCount = UInt32(truncatingIfNeeded: try reader.varint())
      case (LogRecordField.flags, .fixed32):
        record.flags = try reader.fixed32()
      case (LogRecordField.traceId, .lengthDelimited):
        record.traceId = try reader.bytes()
      case (LogRecordField.spanId, .lengthDelimited):
        record.spanId = try reader.bytes()
      case (LogRecordField.observedTimeUnixNano, .fixed64):
        record.observedTimeUnixNano = try reader.fixed64()
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return record
  }

}
