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
  public var description: String {
    switch self {
    case .counter: "counter"
    case .floatingPointCounter: "floatingPointCounter"
    case .gauge: "gauge"
    case .histogram: "histogram"
    }
  }
}
