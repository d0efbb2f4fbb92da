/// OTLP's JSON encoding of the logs messages (ExportLogsServiceRequest, ResourceLogs,
/// ScopeLogs, LogRecord, ExportLogsServiceResponse, ExportLogsPartialSuccess), with the keys
/// of proto3's JSON mapping. The shared rules are in ``OTLPCommonJSON``.
enum OTLPLogsJSON {
  // MARK: Writing

  static func write(_ request: OTLP.ExportLogsServiceRequest, to writer: inout JSONWriter) {
    writer.object { object in
      guard !request.resourceLogs.isEmpty else { return }
      object.key("resourceLogs")
      object.array { array in
        for resourceLogs in request.resourceLogs { write(resourceLogs, to: &array) }
      }
    }
  }

  /// A request of one `ResourceLogs` with one `ScopeLogs`, whose log records `records` writes
  /// (each as a whole object, into the `logRecords` array): the same bytes as the request
  /// holding those records written by ``write(_:to:)-(OTLP.ExportLogsServiceRequest,_)``, when
  /// `records` writes at least one (the model's encoder leaves an empty array out).
  static func writeRequest(
    resource: OTLP.Resource, scope: OTLP.InstrumentationScope,
    to writer: inout JSONWriter, records: (inout JSONWriter) -> Void
  ) {
    writer.object { request in
      request.key("resourceLogs")
      request.array { array in
        array.object { resourceLogs in
          resourceLogs.key("resource")
          OTLPCommonJSON.write(resource, to: &resourceLogs)
          resourceLogs.key("scopeLogs")
          resourceLogs.array { array in
            array.object { scopeLogs in
              scopeLogs.key("scope")
              OTLPCommonJSON.write(scope, to: &scopeLogs)
              scopeLogs.key("logRecords")
              scopeLogs.array(records)
            }
          }
        }
      }
    }
  }

  static func write(_ resourceLogs: OTLP.ResourceLogs, to writer: inout JSONWriter) {
    writer.object { object in
      if let resource = resourceLogs.resource {
        object.key("resource")
        OTLPCommonJSON.write(resource, to: &object)
      }
      if !resourceLogs.scopeLogs.isEmpty {
        object.key("scopeLogs")
        object.array { array in
          for scopeLogs in resourceLogs.scopeLogs { write(scopeLogs, to: &array) }
        }
      }
      OTLPCommonJSON.writeString("schemaUrl", resourceLogs.schemaUrl, to: &object)
    }
  }

  static func write(_ scopeLogs: OTLP.ScopeLogs, to writer: inout JSONWriter) {
    writer.object { object in
      if let scope = scopeLogs.scope {
        object.key("scope")
        OTLPCommonJSON.write(scope, to: &object)
      }
      if !scopeLogs.logRecords.isEmpty {
        object.key("logRecords")
        object.array { array in
          for record in scopeLogs.logRecords { write(record, to: &array) }
        }
      }
      OTLPCommonJSON.writeString("schemaUrl", scopeLogs.schemaUrl, to: &object)
    }
  }

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

  static func write(_ response: OTLP.ExportLogsServiceResponse, to writer: inout JSONWriter) {
    OTLPCommonJSON.writeResponse(
      response.partialSuccess.map { ($0.rejectedLogRecords, $0.errorMessage) },
      rejectedKey: "rejectedLogRecords", to: &writer)
  }

  // MARK: Reading

  static func readRequest(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.ExportLogsServiceRequest
  {
    var request = OTLP.ExportLogsServiceRequest()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      guard key == "resourceLogs" else { return false }
      try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
        request.resourceLogs.append(try readResourceLogs(&reader))
      }
      return true
    }
    return request
  }

  static func readResourceLogs(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.ResourceLogs
  {
    var resourceLogs = OTLP.ResourceLogs()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "resource": resourceLogs.resource = try OTLPCommonJSON.readResource(&reader)
      case "scopeLogs":
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          resourceLogs.scopeLogs.append(try readScopeLogs(&reader))
        }
      case "schemaUrl": resourceLogs.schemaUrl = try reader.readString()
      default: return false
      }
      return true
    }
    return resourceLogs
  }

  static func readScopeLogs(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.ScopeLogs
  {
    var scopeLogs = OTLP.ScopeLogs()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "scope": scopeLogs.scope = try OTLPCommonJSON.readScope(&reader)
      case "logRecords":
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          scopeLogs.logRecords.append(try readLogRecord(&reader))
        }
      case "schemaUrl": scopeLogs.schemaUrl = try reader.readString()
      default: return false
      }
      return true
    }
    return scopeLogs
  }

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

  static func readResponse(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.ExportLogsServiceResponse
  {
    let partial = try OTLPCommonJSON.readResponse(&reader, rejectedKey: "rejectedLogRecords")
    return OTLP.ExportLogsServiceResponse(
      partialSuccess: partial.map {
        OTLP.ExportLogsPartialSuccess(rejectedLogRecords: $0.rejected, errorMessage: $0.message)
      })
  }
}

extension OTLP.ExportLogsServiceRequest {
  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) {
    JSONWriter.append(to: &buffer) { OTLPLogsJSON.write(self, to: &$0) }
  }

  /// Decodes OTLP JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) {
    self = try OTLPCommonJSON.decodeDocument(bytes, OTLPLogsJSON.readRequest)
  }
}

extension OTLP.ExportLogsServiceResponse {
  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) {
    JSONWriter.append(to: &buffer) { OTLPLogsJSON.write(self, to: &$0) }
  }

  /// Decodes OTLP JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) {
    self = try OTLPCommonJSON.decodeDocument(bytes, OTLPLogsJSON.readResponse)
  }
}
