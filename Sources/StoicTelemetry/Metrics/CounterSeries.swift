import CStoicAtomics

/// A handle on a counter series of a ``MetricsSpool``: a monotonic integer sum, exported as a
/// cumulative OTLP `Sum`.
///
/// Made by ``MetricsSpool/counter(label:dimensions:)``; handles made for the same label and
/// dimensions update the same series. An increment is one atomic add to the series' word in
/// the spool's live file, which is shared memory of the kernel: when ``increment(by:)``
/// returns, the new value survives a crash of the process (SIGKILL included). It survives a
/// power loss once a flush that sampled it has synced. No lock, no lookup, no allocation, no
/// system call. Safe to use from any thread, also after the spool is closed (the increments then
/// reach the live file, where the next open finds them).
public final class CounterSeries: @unchecked Sendable {
  let series: MetricsSeries
  private let word: UnsafeMutableRawPointer

  init(_ series: MetricsSeries) {
    self.series = series
    self.word = series.cell(MetricsLiveFormat.valueCell)
  }

  /// Adds `amount`; amounts of zero or less are ignored (a counter never decreases).
  @inlinable
  public func increment(by amount: Int64 = 1) {
    guard amount > 0 else { return }
    add(UInt64(amount))
  }

  @usableFromInline
  func add(_ amount: UInt64) {
    stoic_atomic_add(word, amount)
  }

  /// Starts the sum again from zero, with a new start time (an OTLP reset).
  public func reset() {
    series.reset()
  }

  /// The current sum.
  public var value: Int64 {
    Int64(bitPattern: stoic_atomic_load(word))
  }
}

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

extension CounterSeries: MetricSeriesKind {
  static var kind: MetricKind { .counter }
  static var name: String { "counter" }
  static var valueShape: MetricValueShape { .integer }
  static var otlpData: MetricOTLPData { .monotonicSum }

  /// The shared cells, then the sum (two's complement).
  static func cellCount(boundCount: Int) -> Int { MetricsLiveFormat.valueCell + 1 }

  /// The sum; the marker is the sum.
  static func store(_ value: MetricSample.Value, into cells: inout [UInt64]) -> UInt64 {
    guard case .integer(let sum) = value else { return 0 }
    cells[MetricsLiveFormat.valueCell] = UInt64(bitPattern: sum)
    return UInt64(bitPattern: sum)
  }

  static func read(_ series: MetricsSeries) -> (value: MetricSample.Value, marker: UInt64) {
    let sum = series.load(MetricsLiveFormat.valueCell)
    return (.integer(Int64(bitPattern: sum)), sum)
  }
}

extension FloatingPointCounterSeries: MetricSeriesKind {
  static var kind: MetricKind { .floatingPointCounter }
  static var name: String { "floatingPointCounter" }
  static var valueShape: MetricValueShape { .double }
  static var otlpData: MetricOTLPData { .monotonicSum }

  /// The shared cells, then the sum (a double).
  static func cellCount(boundCount: Int) -> Int { MetricsLiveFormat.valueCell + 1 }

  /// The sum; the marker is its bit pattern.
  static func store(_ value: MetricSample.Value, into cells: inout [UInt64]) -> UInt64 {
    guard case .double(let sum) = value else { return 0 }
    cells[MetricsLiveFormat.valueCell] = sum.bitPattern
    return sum.bitPattern
  }

  static func read(_ series: MetricsSeries) -> (value: MetricSample.Value, marker: UInt64) {
    let bits = series.load(MetricsLiveFormat.valueCell)
    return (.double(Double(bitPattern: bits)), bits)
  }
}
