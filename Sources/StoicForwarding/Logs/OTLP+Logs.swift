// The logs signal's messages: `opentelemetry.proto.logs.v1` and
// `opentelemetry.proto.collector.logs.v1`, outer to inner.

extension OTLP {
  /// The body of a `POST /v1/logs`:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest`.
  public struct ExportLogsServiceRequest: Sendable, Hashable {
    /// The records, by resource.
    public var resourceLogs: [ResourceLogs]

    /// Creates a request.
    public init(resourceLogs: [ResourceLogs] = []) {
      self.resourceLogs = resourceLogs
    }

    /// How many log records the request carries.
    public var logRecordCount: Int {
      resourceLogs.reduce(0) { total, resource in
        resource.scopeLogs.reduce(total) { $0 + $1.logRecords.count }
      }
    }
  }

  /// The body of a successful answer to `POST /v1/logs`:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse`.
  public struct ExportLogsServiceResponse: Sendable, Hashable {
    /// Set when the receiver rejected some records, or has a warning; `nil` for a full success.
    public var partialSuccess: ExportLogsPartialSuccess?

    /// Creates a response.
    public init(partialSuccess: ExportLogsPartialSuccess? = nil) {
      self.partialSuccess = partialSuccess
    }
  }

  /// What a receiver rejected of a logs request:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess`.
  public struct ExportLogsPartialSuccess: Sendable, Hashable {
    /// How many log records were rejected (0 with a message: a warning).
    public var rejectedLogRecords: Int64
    /// Why, in English, for a person.
    public var errorMessage: String

    /// Creates a partial success.
    public init(rejectedLogRecords: Int64 = 0, errorMessage: String = "") {
      self.rejectedLogRecords = rejectedLogRecords
      self.errorMessage = errorMessage
    }
  }

  /// The log records of one resource: `opentelemetry.proto.logs.v1.ResourceLogs`.
  public struct ResourceLogs: Sendable, Hashable {
    /// The resource; `nil` when not given.
    public var resource: Resource?
    /// The records, by scope.
    public var scopeLogs: [ScopeLogs]
    /// The schema URL of the resource's attributes.
    public var schemaUrl: String

    /// Creates the records of one resource.
    public init(resource: Resource? = nil, scopeLogs: [ScopeLogs] = [], schemaUrl: String = "") {
      self.resource = resource
      self.scopeLogs = scopeLogs
      self.schemaUrl = schemaUrl
    }
  }

  /// The log records of one instrumentation scope: `opentelemetry.proto.logs.v1.ScopeLogs`.
  public struct ScopeLogs: Sendable, Hashable {
    /// The scope; `nil` when not given.
    public var scope: InstrumentationScope?
    /// The records.
    public var logRecords: [LogRecord]
    /// The schema URL of the records' attributes.
    public var schemaUrl: String

    /// Creates a group of records.
    public init(
      scope: InstrumentationScope? = nil, logRecords: [LogRecord] = [], schemaUrl: String = ""
    ) {
      self.scope = scope
      self.logRecords = logRecords
      self.schemaUrl = schemaUrl
    }
  }

  /// One log record: `opentelemetry.proto.logs.v1.LogRecord`.
  public struct LogRecord: Sendable, Hashable {
    /// When the event happened, in nanoseconds since the Unix epoch (0: unknown).
    public var timeUnixNano: UInt64
    /// When it was observed (recorded), in nanoseconds since the Unix epoch.
    public var observedTimeUnixNano: UInt64
    /// The severity as a number.
    public var severityNumber: SeverityNumber
    /// The severity as the producer names it (`info`, `error`, …).
    public var severityText: String
    /// The message; `nil` when the record has none.
    public var body: AnyValue?
    /// The record's attributes (a logger's metadata).
    public var attributes: [KeyValue]
    /// How many attributes were dropped.
    public var droppedAttributesCount: UInt32
    /// W3C trace flags in the low byte.
    public var flags: UInt32
    /// A 16-byte trace id, or empty (hex in JSON).
    public var traceId: [UInt8]
    /// An 8-byte span id, or empty (hex in JSON).
    public var spanId: [UInt8]

    /// Creates a record.
    public init(
      timeUnixNano: UInt64 = 0, observedTimeUnixNano: UInt64 = 0,
      severityNumber: SeverityNumber = .unspecified, severityText: String = "",
      body: AnyValue? = nil, attributes: [KeyValue] = [], droppedAttributesCount: UInt32 = 0,
      flags: UInt32 = 0, traceId: [UInt8] = [], spanId: [UInt8] = []
    ) {
      self.timeUnixNano = timeUnixNano
      self.observedTimeUnixNano = observedTimeUnixNano
      self.severityNumber = severityNumber
      self.severityText = severityText
      self.body = body
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
      self.flags = flags
      self.traceId = traceId
      self.spanId = spanId
    }

    /// The value of the first attribute named `key`.
    public func attribute(_ key: String) -> AnyValue? {
      attributes.first { $0.key == key }?.value
    }
  }

  /// A log record's severity: `opentelemetry.proto.logs.v1.SeverityNumber`. An open set, as in
  /// protobuf: a number with no name here is kept as it came.
  public struct SeverityNumber: RawRepresentable, Sendable, Hashable {
    /// The number on the wire (an integer in JSON too).
    public var rawValue: Int32

    /// Wraps a number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: not set.
    public static let unspecified = SeverityNumber(rawValue: 0)
    /// 1: TRACE.
    public static let trace = SeverityNumber(rawValue: 1)
    /// 5: DEBUG.
    public static let debug = SeverityNumber(rawValue: 5)
    /// 9: INFO.
    public static let info = SeverityNumber(rawValue: 9)
    /// 10: INFO2 (swift-log's `notice`).
    public static let info2 = SeverityNumber(rawValue: 10)
    /// 13: WARN.
    public static let warn = SeverityNumber(rawValue: 13)
    /// 17: ERROR.
    public static let error = SeverityNumber(rawValue: 17)
    /// 21: FATAL (swift-log's `critical`).
    public static let fatal = SeverityNumber(rawValue: 21)
  }
}

extension OTLP.ResourceLogs: OTLPResourceGroup {
  init() { self.init(resource: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var scopeGroups: [OTLP.ScopeLogs] {
    get { scopeLogs }
    _modify { yield &scopeLogs }
  }
  static var requestKey: StaticString { "resourceLogs" }
  static var scopesKey: StaticString { "scopeLogs" }
}

extension OTLP.ScopeLogs: OTLPScopeGroup {
  init() { self.init(scope: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var items: [OTLP.LogRecord] {
    get { logRecords }
    _modify { yield &logRecords }
  }
  static var itemsKey: StaticString { "logRecords" }
  static func writeItem(_ item: OTLP.LogRecord, to writer: inout ProtobufWriter) {
    OTLPLogsProtobuf.write(item, to: &writer)
  }
  static func readItem(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.LogRecord {
    try OTLPLogsProtobuf.readLogRecord(&reader)
  }
  static func writeItem(_ item: OTLP.LogRecord, to writer: inout JSONWriter) {
    OTLPLogsJSON.write(item, to: &writer)
  }
  static func readItem(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.LogRecord {
    try OTLPLogsJSON.readLogRecord(&reader)
  }
}

extension OTLP.ExportLogsServiceRequest: OTLPExportServiceRequest {
  /// Log records.
  public static var signal: OTLPSignal { .logs }

  var resourceGroups: [OTLP.ResourceLogs] { resourceLogs }

  init(resourceGroups: [OTLP.ResourceLogs]) { self.init(resourceLogs: resourceGroups) }

  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) { appendProtobuf(to: &buffer) }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    try self.init(readingProtobuf: bytes)
  }

  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) { appendJSON(to: &buffer) }

  /// Decodes OTLP JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) { try self.init(readingJSON: bytes) }
}

extension OTLP.ExportLogsServiceResponse: OTLPExportServiceResponse {
  /// The log records the partial success rejected and its message, or `nil` for a full success.
  public var rejection: (count: Int64, message: String)? {
    partialSuccess.map { ($0.rejectedLogRecords, $0.errorMessage) }
  }

  /// A response holding the partial success `rejection` (log records rejected and a message), or a
  /// full success for `nil`.
  public init(rejection: (count: Int64, message: String)?) {
    self.init(
      partialSuccess: rejection.map {
        OTLP.ExportLogsPartialSuccess(rejectedLogRecords: $0.count, errorMessage: $0.message)
      })
  }

  /// `rejectedLogRecords`.
  public static var rejectedCountKey: StaticString { "rejectedLogRecords" }
}
