import CStoicAtomics

/// A handle on a floating-point counter series of a ``MetricsSpool``: a monotonic sum of
/// doubles, exported as a cumulative OTLP `Sum` of doubles.
///
/// Made by ``MetricsSpool/floatingPointCounter(label:dimensions:)``. An increment is a
/// compare-and-swap loop on the series' word in the live file: in the kernel when it returns,
/// like ``CounterSeries/increment(by:)``. Safe to use from any thread.
public final class FloatingPointCounterSeries: @unchecked Sendable {
  let series: MetricsSeries
  private let word: UnsafeMutableRawPointer

  init(_ series: MetricsSeries) {
    self.series = series
    self.word = series.cell(MetricsLiveFormat.valueCell)
  }

  /// Adds `amount`; amounts that are not greater than zero (NaN included) are ignored.
  public func increment(by amount: Double) {
    guard amount > 0 else { return }
    _ = stoic_atomic_add_double(word, amount)
  }

  /// Starts the sum again from zero, with a new start time.
  public func reset() {
    series.reset()
  }

  /// The current sum.
  public var value: Double {
    Double(bitPattern: stoic_atomic_load(word))
  }
}
