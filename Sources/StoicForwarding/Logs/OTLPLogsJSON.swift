/// OTLP's JSON encoding of the logs signal's `LogRecord`, with the keys of proto3's JSON
/// mapping. The request's nesting, the response and the shared rules are in
/// ``OTLPCommonJSON``.
enum OTLPLogsJSON {
  // MARK: Writing

  static func write(_ record: OTLP.LogRecord, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeQuoted("timeUnixNano", record.timeUnixNano, to: &object)
      OTLPCommonJSON.writeNumber(
        "severityNumber", Int64(record.severityNumber.rawValue), to: &object)
      OTLPCommonJSON.writeString("severityText", record.severityText, to: &object)
      if let body = record.body {
        object.key("body")
        OTLPCommonJSON.write(body, to: &object)
      }
      OTLPCommonJSON.writeAttributesField(record.attributes, to: &object)
      OTLPCommonJSON.writeNumber(
        "droppedAttributesCount", Int64(record.droppedAttributesCount), to: &object)
      OTLPCommonJSON.writeNumber("flags", Int64(record.flags), to: &object)
      if !record.traceId.isEmpty {
        object.key("traceId")
        object.hex(record.traceId)
      }
      if !record.spanId.isEmpty {
        object.key("spanId")
        object.hex(record.spanId)
      }
      OTLPCommonJSON.writeQuoted("observedTimeUnixNano", record.observedTimeUnixNano, to: &object)
    }
  }

  // MARK: Reading

  static func readLogRecord(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.LogRecord
  {
    var record = OTLP.LogRecord()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "timeUnixNano": record.timeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "observedTimeUnixNano":
        record.observedTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "severityNumber":
        record.severityNumber = OTLP.SeverityNumber(
          rawValue: try OTLPCommonJSON.readInt32(&reader))
      case "severityText": record.severityText = try reader.readString()
      case "body": record.body = try OTLPCommonJSON.readAnyValue(&reader)
      case "attributes": record.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case "droppedAttributesCount":
        record.droppedAttributesCount = try OTLPCommonJSON.readUInt32(&reader)
      case "flags": record.flags = try OTLPCommonJSON.readUInt32(&reader)
      case "traceId": record.traceId = try OTLPCommonJSON.readHex(&reader)
      case "spanId": record.spanId = try OTLPCommonJSON.readHex(&reader)
      default: return false
      }
      return true
    }
    return record
  }

}
