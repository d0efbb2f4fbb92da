extension OTLP {
  /// Whether a sum or histogram restarts at each report or accumulates:
  /// `opentelemetry.proto.metrics.v1.AggregationTemporality`. An open set, as in protobuf.
  public struct AggregationTemporality: RawRepresentable, Sendable, Hashable {
    /// The number on the wire (an integer in JSON too).
    public var rawValue: Int32

    /// Wraps a number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: not set (invalid for a sum or histogram).
    public static let unspecified = AggregationTemporality(rawValue: 0)
    /// 1: each point covers the time since the previous report.
    public static let delta = AggregationTemporality(rawValue: 1)
    /// 2: each point covers the time since `startTimeUnixNano`.
    public static let cumulative = AggregationTemporality(rawValue: 2)
  }
}
