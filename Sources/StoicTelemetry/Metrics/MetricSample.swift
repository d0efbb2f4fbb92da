/// One data point of one metric series, as the metrics spool appends it to its journal at each
/// flush and as a forwarder reads it back (``MetricsSpool/forEachSample(from:through:_:)``).
///
/// Every sample carries its series' whole identity (``name``, ``dimensions``, ``kind``,
/// ``unit``), so it can be forwarded alone; values are cumulative from ``startNanoseconds``, so
/// a lost or repeated sample never makes a collector count twice. It maps onto OTLP as:
///
/// - ``MetricKind/counter`` and ``MetricKind/floatingPointCounter``: a `Sum` data point,
///   `is_monotonic = true`, `aggregation_temporality = CUMULATIVE`, with
///   `start_time_unix_nano` = ``startNanoseconds`` and `time_unix_nano` = ``timeNanoseconds``.
/// - ``MetricKind/gauge``: a `Gauge` data point at ``timeNanoseconds``
///   (``startNanoseconds`` is when the series was made).
/// - ``MetricKind/histogram``: a cumulative `Histogram` data point with explicit bounds
///   (``MetricHistogram``).
///
/// ``dimensions`` become the data point's attributes; ``MetricDimension/overflow`` marks the
/// series that holds what was folded beyond the cardinality limit.
public struct MetricSample: Sendable, Hashable {
  /// A sample's value; its case follows the sample's ``MetricSample/kind``.
  public enum Value: Sendable, Hashable {
    /// The cumulative sum of a ``MetricKind/counter``.
    case integer(Int64)
    /// The cumulative sum of a ``MetricKind/floatingPointCounter``, or a
    /// ``MetricKind/gauge``'s value.
    case double(Double)
    /// The cumulative state of a ``MetricKind/histogram``.
    case histogram(MetricHistogram)
  }

  /// The metric's name (the swift-metrics label).
  public var name: String
  /// The series' dimensions, sorted by key.
  public var dimensions: [MetricDimension]
  /// What the series measures.
  public var kind: MetricKind
  /// The unit of the values, in UCUM as OpenTelemetry uses it (`ns` for timers), or empty.
  public var unit: String
  /// When the cumulative values started (the series was made, or last reset), in nanoseconds
  /// since the Unix epoch.
  public var startNanoseconds: UInt64
  /// When the sample was taken, in nanoseconds since the Unix epoch.
  public var timeNanoseconds: UInt64
  /// The value.
  public var value: Value

  /// A sample.
  public init(
    name: String, dimensions: [MetricDimension], kind: MetricKind, unit: String = "",
    startNanoseconds: UInt64, timeNanoseconds: UInt64, value: Value
  ) {
    self.name = name
    self.dimensions = dimensions
    self.kind = kind
    self.unit = unit
    self.startNanoseconds = startNanoseconds
    self.timeNanoseconds = timeNanoseconds
    self.value = value
  }

  /// Whether this is the series into which series beyond the cardinality limit were folded.
  public var isOverflow: Bool { dimensions.contains(.overflow) }

  /// Whether ``value``'s case is the one ``kind`` calls for.
  public var isConsistent: Bool {
    switch (kind, value) {
    case (.counter, .integer), (.floatingPointCounter, .double), (.gauge, .double),
      (.histogram, .histogram):
      true
    default:
      false
    }
  }
}
