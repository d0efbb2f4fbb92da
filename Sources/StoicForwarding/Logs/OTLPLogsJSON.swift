/// OTLP's JSON encoding of the logs signal's `LogRecord`, with the keys of proto3's JSON
/// mapping. The request's nesting, the response and the shared rules are in
/// ``OTLPCommonJSON``.
enum OTLPLogsJSON {
  /// `LogRecord`'s fields (the one table of them).
  typealias Field = OTLPLogRecordField

  // MARK: Writing

  static func write(_ record: OTLP.LogRecord, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeQuoted(Field.timeUnixNano.jsonKey, record.timeUnixNano, to: &object)
      OTLPCommonJSON.writeNumber(
        Field.severityNumber.jsonKey, Int64(record.severityNumber.rawValue), to: &object)
      OTLPCommonJSON.writeString(Field.severityText.jsonKey, record.severityText, to: &object)
      if let body = record.body {
        object.key(Field.body.jsonKey)
        OTLPCommonJSON.write(body, to: &object)
      }
      OTLPCommonJSON.writeAttributesField(record.attributes, to: &object)
      OTLPCommonJSON.writeNumber(
        Field.droppedAttributesCount.jsonKey, Int64(record.droppedAttributesCount), to: &object)
      OTLPCommonJSON.writeNumber(Field.flags.jsonKey, Int64(record.flags), to: &object)
      if !record.traceId.isEmpty {
        object.key(Field.traceId.jsonKey)
        object.hex(record.traceId)
      }
      if !record.spanId.isEmpty {
        object.key(Field.spanId.jsonKey)
        object.hex(record.spanId)
      }
      OTLPCommonJSON.writeQuoted(
        Field.observedTimeUnixNano.jsonKey, record.observedTimeUnixNano, to: &object)
    }
  }

  // MARK: Reading

  static func readLogRecord(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.LogRecord
  {
    var record = OTLP.LogRecord()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      guard let field = Field(jsonKey: key) else { return false }
      switch field {
      case .timeUnixNano: record.timeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case .severityNumber:
        record.severityNumber = OTLP.SeverityNumber(
          rawValue: try OTLPCommonJSON.readInt32(&reader))
      case .severityText: record.severityText = try reader.readString()
      case .body: record.body = try OTLPCommonJSON.readAnyValue(&reader)
      case .attributes: record.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case .droppedAttributesCount:
        record.droppedAttributesCount = try OTLPCommonJSON.readUInt32(&reader)
      case .flags: record.flags = try OTLPCommonJSON.readUInt32(&reader)
      case .traceId: record.traceId = try OTLPCommonJSON.readHex(&reader)
      case .spanId: record.spanId = try OTLPCommonJSON.readHex(&reader)
      case .observedTimeUnixNano:
        record.observedTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      }
      return true
    }
    return record
  }

}
