/// What one metric kind is, wherever the package must know it: its cells in the live file
/// (``MetricsLiveFormat``), the case of ``MetricSample/Value`` its samples hold (which is also
/// how their values are encoded, ``MetricSampleFormat``) and the OTLP data they become
/// (``MetricKind/otlpData``).
///
/// Each kind's handle is its conformer (``CounterSeries``, ``FloatingPointCounterSeries``,
/// ``GaugeSeries``, ``HistogramSeries``), and ``MetricKind/series`` maps the persisted kind
/// code to it, in one place. Beyond them, the package names a kind only where a user asks for
/// one (``MetricsSpool``'s `counter(label:dimensions:)` and its siblings, the swift-metrics
/// factory). A new kind is a ``MetricKind`` case, its handle with this conformance, the spool's
/// method that makes it and the factory's that calls it.
///
/// Every cell a conformer reads or stores is named in ``MetricsLiveFormat``; the first three
/// (start, sampled marker, sampled start) are every kind's and set by ``MetricsSeries``.
protocol MetricSeriesKind {
  /// The kind's persisted code.
  static var kind: MetricKind { get }
  /// The kind's name (``MetricKind/description``).
  static var name: String { get }
  /// The case of ``MetricSample/Value`` every sample of the kind holds.
  static var valueShape: MetricValueShape { get }
  /// The OTLP data its samples become.
  static var otlpData: MetricOTLPData { get }
  /// How many cells a series of the kind with `boundCount` bucket bounds has, the three
  /// shared ones included.
  static func cellCount(boundCount: Int) -> Int
  /// Sets the kind's cells of a new, empty series where zero is not their empty value.
  static func initialize(_ cells: inout [UInt64])
  /// Stores `value` (the series' last synced sample's) into the kind's cells of `cells`, and
  /// returns the marker that sample had (what tells a change of the series' value); nothing
  /// and 0 for a value of another kind.
  static func store(_ value: MetricSample.Value, into cells: inout [UInt64]) -> UInt64
  /// The series' current value and its change marker, read from its cells.
  static func read(_ series: MetricsSeries) -> (value: MetricSample.Value, marker: UInt64)
}

extension MetricSeriesKind {
  static func initialize(_ cells: inout [UInt64]) {}
}

/// The case of ``MetricSample/Value`` a kind's samples hold, and so how their values are
/// encoded.
enum MetricValueShape: Sendable {
  /// ``MetricSample/Value/integer(_:)``: a two's-complement u64.
  case integer
  /// ``MetricSample/Value/double(_:)``: a double.
  case double
  /// ``MetricSample/Value/histogram(_:)``: bucket counts, sum, minimum, maximum; the only
  /// shape whose series have bucket bounds.
  case histogram
}

/// The OpenTelemetry data a kind's samples become (the `data` of OTLP's `Metric`).
package enum MetricOTLPData: Sendable {
  /// `Sum`, monotonic, cumulative.
  case monotonicSum
  /// `Gauge`.
  case gauge
  /// `Histogram`, cumulative, explicit bounds.
  case explicitHistogram
}

extension MetricKind {
  /// The kind's conformer: the one place a persisted kind code meets its kind.
  var series: any MetricSeriesKind.Type {
    switch self {
    case .counter: CounterSeries.self
    case .floatingPointCounter: FloatingPointCounterSeries.self
    case .gauge: GaugeSeries.self
    case .histogram: HistogramSeries.self
    }
  }

  /// The OTLP data its samples become.
  package var otlpData: MetricOTLPData { series.otlpData }
}

extension MetricSample.Value {
  /// Which case the value is.
  var shape: MetricValueShape {
    switch self {
    case .integer: .integer
    case .double: .double
    case .histogram: .histogram
    }
  }
}
