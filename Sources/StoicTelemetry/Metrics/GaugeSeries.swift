import CStoicAtomics

/// A handle on a gauge series of a ``MetricsSpool``: a value that is set, or moved up and down
/// (a swift-metrics meter, or a recorder that does not aggregate), exported as an OTLP `Gauge`.
///
/// Made by ``MetricsSpool/gauge(label:dimensions:)``. Each call stores into the live file (a
/// move is a compare-and-swap loop) and then counts the update, so a gauge is sampled once it
/// was set at least once. Safe to use from any thread.
public final class GaugeSeries: @unchecked Sendable {
  let series: MetricsSeries
  private let word: UnsafeMutableRawPointer
  private let updates: UnsafeMutableRawPointer

  init(_ series: MetricsSeries) {
    self.series = series
    self.word = series.cell(MetricsLiveFormat.valueCell)
    self.updates = series.cell(MetricsLiveFormat.gaugeUpdatesCell)
  }

  /// Sets the value.
  public func set(_ value: Double) {
    stoic_atomic_store(word, value.bitPattern)
    stoic_atomic_add(updates, 1)
  }

  /// Adds `amount` to the value.
  public func increment(by amount: Double = 1) {
    _ = stoic_atomic_add_double(word, amount)
    stoic_atomic_add(updates, 1)
  }

  /// Subtracts `amount` from the value.
  public func decrement(by amount: Double = 1) {
    increment(by: -amount)
  }

  /// The current value.
  public var value: Double {
    Double(bitPattern: stoic_atomic_load(word))
  }
}

extension GaugeSeries: MetricSeriesKind {
  static var kind: MetricKind { .gauge }
  static var name: String { "gauge" }
  static var valueShape: MetricValueShape { .double }
  static var otlpData: MetricOTLPData { .gauge }

  /// The shared cells, then the value (a double) and the count of updates.
  static func cellCount(boundCount: Int) -> Int { MetricsLiveFormat.gaugeUpdatesCell + 1 }

  /// The value, counted as one update (a gauge is sampled once set); the marker is the count
  /// of updates (a gauge set to the value it had still changed).
  static func store(_ value: MetricSample.Value, into cells: inout [UInt64]) -> UInt64 {
    guard case .double(let number) = value else { return 0 }
    cells[MetricsLiveFormat.valueCell] = number.bitPattern
    cells[MetricsLiveFormat.gaugeUpdatesCell] = 1
    return 1
  }

  static func read(_ series: MetricsSeries) -> (value: MetricSample.Value, marker: UInt64) {
    let updates = series.load(MetricsLiveFormat.gaugeUpdatesCell)
    return (.double(series.loadDouble(MetricsLiveFormat.valueCell)), updates)
  }
}
