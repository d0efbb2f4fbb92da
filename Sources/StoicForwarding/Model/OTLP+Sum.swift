extension OTLP {
  /// A sum over time (a counter when monotonic): `opentelemetry.proto.metrics.v1.Sum`.
  public struct Sum: Sendable, Hashable {
    /// The points.
    public var dataPoints: [NumberDataPoint]
    /// Delta or cumulative.
    public var aggregationTemporality: AggregationTemporality
    /// Whether the sum only ever grows (a counter).
    public var isMonotonic: Bool

    /// Creates a sum; by default a monotonic cumulative one, as a counter is.
    public init(
      dataPoints: [NumberDataPoint] = [],
      aggregationTemporality: AggregationTemporality = .cumulative, isMonotonic: Bool = true
    ) {
      self.dataPoints = dataPoints
      self.aggregationTemporality = aggregationTemporality
      self.isMonotonic = isMonotonic
    }
  }
}
