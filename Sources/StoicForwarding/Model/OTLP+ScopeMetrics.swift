extension OTLP {
  /// The metrics of one instrumentation scope: `opentelemetry.proto.metrics.v1.ScopeMetrics`.
  public struct ScopeMetrics: Sendable, Hashable {
    /// The scope; `nil` when not given.
    public var scope: InstrumentationScope?
    /// The metrics.
    public var metrics: [Metric]
    /// The schema URL of the metrics' attributes.
    public var schemaUrl: String

    /// Creates a group of metrics.
    public init(scope: InstrumentationScope? = nil, metrics: [Metric] = [], schemaUrl: String = "")
    {
      self.scope = scope
      self.metrics = metrics
      self.schemaUrl = schemaUrl
    }
  }
}
