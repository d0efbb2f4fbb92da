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
  public var isConsistent: Bool { value.shape == kind.series.valueShape }
}

/// What a metric series measures, and so how its samples map onto OpenTelemetry's data points.
///
/// | kind | made by | sample value | OTLP |
/// | --- | --- | --- | --- |
/// | ``counter`` | `counter(label:dimensions:)`, `observeCounter(label:dimensions:read:)` | ``MetricSample/Value/integer(_:)`` | Sum, monotonic, cumulative, `as_int` |
/// | ``floatingPointCounter`` | `floatingPointCounter(label:dimensions:)` | ``MetricSample/Value/double(_:)`` | Sum, monotonic, cumulative, `as_double` |
/// | ``gauge`` | `gauge(label:dimensions:)` (a meter, or a recorder that does not aggregate) | ``MetricSample/Value/double(_:)`` | Gauge, `as_double` |
/// | ``histogram`` | `histogram(label:dimensions:bounds:)`, `timer(label:dimensions:)` | ``MetricSample/Value/histogram(_:)`` | Histogram, cumulative, explicit bounds |
///
/// The raw values are the kind's code in the samples' and the live file's encodings; they never
/// change.
public enum MetricKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A monotonic integer sum.
  case counter = 1
  /// A monotonic floating-point sum.
  case floatingPointCounter = 2
  /// The last value set (or the running value of a meter).
  case gauge = 3
  /// Values counted into buckets with explicit upper bounds, with their sum, minimum and
  /// maximum.
  case histogram = 4

  /// `counter`, `floatingPointCounter`, `gauge` or `histogram`.
  public var description: String { series.name }
}

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
