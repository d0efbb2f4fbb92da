extension OTLP {
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
}
