/// The protobuf encoding of `opentelemetry/proto/logs/v1/logs.proto` (ResourceLogs, ScopeLogs,
/// LogRecord) and `opentelemetry/proto/collector/logs/v1/logs_service.proto`
/// (ExportLogsServiceRequest, ExportLogsServiceResponse, ExportLogsPartialSuccess), with the
/// field numbers of those files. Fields are written in field-number order, as protoc's
/// encoders write them.
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

  /// `ExportLogsServiceResponse`.
  enum ExportLogsServiceResponseField {
    static let partialSuccess = 1
  }

  /// `ExportLogsPartialSuccess`.
  enum ExportLogsPartialSuccessField {
    static let rejectedLogRecords = 1  // int64
    static let errorMessage = 2
  }

  // MARK: Writing

  static func write(_ request: OTLP.ExportLogsServiceRequest, to writer: inout ProtobufWriter) {
    OTLPCommonProtobuf.writeRequest(request.resourceLogs, to: &writer, item: write(_:to:))
  }

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

  static func write(_ response: OTLP.ExportLogsServiceResponse, to writer: inout ProtobufWriter) {
    OTLPCommonProtobuf.writePartialSuccess(
      response.partialSuccess.map { ($0.rejectedLogRecords, $0.errorMessage) },
      field: ExportLogsServiceResponseField.partialSuccess,
      rejectedField: ExportLogsPartialSuccessField.rejectedLogRecords,
      messageField: ExportLogsPartialSuccessField.errorMessage, to: &writer)
  }

  // MARK: Reading

  static func read(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.ExportLogsServiceRequest
  {
    OTLP.ExportLogsServiceRequest(
      resourceLogs: try OTLPCommonProtobuf.readRequest(&reader, item: readLogRecord))
  }

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

  static func readResponse(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.ExportLogsServiceResponse
  {
    let partial = try OTLPCommonProtobuf.readPartialSuccess(
      &reader, field: ExportLogsServiceResponseField.partialSuccess,
      rejectedField: ExportLogsPartialSuccessField.rejectedLogRecords,
      messageField: ExportLogsPartialSuccessField.errorMessage)
    return OTLP.ExportLogsServiceResponse(
      partialSuccess: partial.map {
        OTLP.ExportLogsPartialSuccess(rejectedLogRecords: $0.rejected, errorMessage: $0.message)
      })
  }
}

extension OTLP.ExportLogsServiceRequest: OTLPMessage {
  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) {
    ProtobufWriter.append(to: &buffer) { OTLPLogsProtobuf.write(self, to: &$0) }
  }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    var reader = ProtobufReader(bytes)
    self = try OTLPLogsProtobuf.read(&reader)
  }
}

extension OTLP.ExportLogsServiceResponse: OTLPMessage {
  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) {
    ProtobufWriter.append(to: &buffer) { OTLPLogsProtobuf.write(self, to: &$0) }
  }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    var reader = ProtobufReader(bytes)
    self = try OTLPLogsProtobuf.readResponse(&reader)
  }
}
