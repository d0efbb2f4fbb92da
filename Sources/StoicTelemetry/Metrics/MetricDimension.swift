/// One dimension (an OpenTelemetry attribute) of a metric series: a key and its value.
///
/// A series is identified by its name, kind, unit and dimensions; the spool sorts the
/// dimensions by key (then value) when a series is made, so the same pairs in another order
/// name the same series.
public struct MetricDimension: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The attribute's key.
  public var key: String
  /// The attribute's value.
  public var value: String

  /// A dimension.
  public init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }

  /// The dimension that marks the series into which series beyond the cardinality limit are
  /// folded: `otel.metric.overflow=true`, as the OpenTelemetry SDK specification prescribes
  /// (an exporter sends its value as the boolean `true`).
  public static let overflow = MetricDimension("otel.metric.overflow", "true")

  /// Orders by key, then value.
  public static func < (lhs: MetricDimension, rhs: MetricDimension) -> Bool {
    (lhs.key, lhs.value) < (rhs.key, rhs.value)
  }

  /// `key=value`.
  public var description: String { "\(key)=\(value)" }
}
