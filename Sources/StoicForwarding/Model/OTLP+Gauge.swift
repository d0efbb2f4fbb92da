extension OTLP {
  /// Values sampled at a time, not summed: `opentelemetry.proto.metrics.v1.Gauge`.
  public struct Gauge: Sendable, Hashable {
    /// The points.
    public var dataPoints: [NumberDataPoint]

    /// Creates a gauge.
    public init(dataPoints: [NumberDataPoint] = []) {
      self.dataPoints = dataPoints
    }
  }
}
