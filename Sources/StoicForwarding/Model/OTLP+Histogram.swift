extension OTLP {
  /// Distributions in buckets with explicit bounds: `opentelemetry.proto.metrics.v1.Histogram`.
  public struct Histogram: Sendable, Hashable {
    /// The points.
    public var dataPoints: [HistogramDataPoint]
    /// Delta or cumulative.
    public var aggregationTemporality: AggregationTemporality

    /// Creates a histogram; cumulative by default.
    public init(
      dataPoints: [HistogramDataPoint] = [],
      aggregationTemporality: AggregationTemporality = .cumulative
    ) {
      self.dataPoints = dataPoints
      self.aggregationTemporality = aggregationTemporality
    }
  }
}
