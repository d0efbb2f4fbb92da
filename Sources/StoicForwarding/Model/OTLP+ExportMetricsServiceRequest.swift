extension OTLP {
  /// The body of a `POST /v1/metrics`:
  /// `opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest`.
  public struct ExportMetricsServiceRequest: Sendable, Hashable {
    /// The metrics, by resource.
    public var resourceMetrics: [ResourceMetrics]

    /// Creates a request.
    public init(resourceMetrics: [ResourceMetrics] = []) {
      self.resourceMetrics = resourceMetrics
    }

    /// How many data points the request carries (what a partial success counts).
    public var dataPointCount: Int {
      resourceMetrics.reduce(0) { total, resource in
        resource.scopeMetrics.reduce(total) { scopeTotal, scope in
          scope.metrics.reduce(scopeTotal) { $0 + $1.dataPointCount }
        }
      }
    }
  }
}
