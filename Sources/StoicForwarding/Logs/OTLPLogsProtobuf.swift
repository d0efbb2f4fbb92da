/// The protobuf encoding of `opentelemetry/proto/logs/v1/logs.proto`'s `LogRecord`, with the
/// field numbers of that file. Fields are written in field-number order, as protoc's encoders
/// write them. The request's nesting (`ExportLogsServiceRequest`, `ResourceLogs`, `ScopeLogs`)
/// and the response are every signal's, in ``OTLPCommonProtobuf``.
package enum OTLPLogsProtobuf {
  /// `LogRecord`'s fields (the one table of them).
  package typealias Field = OTLPLogRecordField

  // MARK: Writing

  static func write(_ record: OTLP.LogRecord, to writer: inout ProtobufWriter) {
    writer.fixed64(Field.timeUnixNano.number, record.timeUnixNano)
    writer.int32(Field.severityNumber.number, record.severityNumber.rawValue)
    writer.string(Field.severityText.number, record.severityText)
    if let body = record.body {
      let slot = writer.beginMessage(Field.body.number)
      OTLPCommonProtobuf.write(body, to: &writer)
      writer.endMessage(slot)
    }
    OTLPCommonProtobuf.writeAttributes(Field.attributes.number, record.attributes, to: &writer)
    writer.uint64(Field.droppedAttributesCount.number, UInt64(record.droppedAttributesCount))
    writer.fixed32(Field.flags.number, record.flags)
    writer.bytes(Field.traceId.number, record.traceId)
    writer.bytes(Field.spanId.number, record.spanId)
    writer.fixed64(Field.observedTimeUnixNano.number, record.observedTimeUnixNano)
  }

  // MARK: Reading

  static func readLogRecord(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.LogRecord
  {
    var record = OTLP.LogRecord()
    while let (number, wireType) = try reader.nextField() {
      guard let field = Field(number: number, wireType: wireType) else {
        try reader.skip(wireType, field: number)
        continue
      }
      switch field {
      case .timeUnixNano: record.timeUnixNano = try reader.fixed64()
      case .severityNumber:
        record.severityNumber = OTLP.SeverityNumber(
          rawValue: Int32(truncatingIfNeeded: try reader.varint()))
      case .severityText: record.severityText = try reader.string()
      case .body:
        var body = record.body ?? .empty
        record.body = nil
        var message = try reader.message()
        try OTLPCommonProtobuf.merge(&body, from: &message)
        record.body = body
      case .attributes: record.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case .droppedAttributesCount:
        record.droppedAttributesCount = UInt32(truncatingIfNeeded: try reader.varint())
      case .flags: record.flags = try reader.fixed32()
      case .traceId: record.traceId = try reader.bytes()
      case .spanId: record.spanId = try reader.bytes()
      case .observedTimeUnixNano: record.observedTimeUnixNano = try reader.fixed64()
      }
    }
    return record
  }

}
