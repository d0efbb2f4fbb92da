extension OTLP {
  /// One attribute: `opentelemetry.proto.common.v1.KeyValue`.
  public struct KeyValue: Sendable, Hashable {
    /// The attribute's name.
    public var key: String
    /// Its value (``AnyValue/empty`` when absent).
    public var value: AnyValue

    /// Creates an attribute.
    public init(_ key: String, _ value: AnyValue) {
      self.key = key
      self.value = value
    }
  }
}
