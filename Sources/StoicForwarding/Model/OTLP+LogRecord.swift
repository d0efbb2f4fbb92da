extension OTLP {
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
}
