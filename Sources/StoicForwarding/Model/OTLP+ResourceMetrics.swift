extension OTLP {
  /// The metrics of one resource: `opentelemetry.proto.metrics.v1.ResourceMetrics`.
  public struct ResourceMetrics: Sendable, Hashable {
    /// The resource; `nil` when not given.
    public var resource: Resource?
    /// The metrics, by scope.
    public var scopeMetrics: [ScopeMetrics]
    /// The schema URL of the resource's attributes.
    public var schemaUrl: String

    /// Creates the metrics of one resource.
    public init(
      resource: Resource? = nil, scopeMetrics: [ScopeMetrics] = [], schemaUrl: String = ""
    ) {
      self.resource = resource
      self.scopeMetrics = scopeMetrics
      self.schemaUrl = schemaUrl
    }
  }
}
