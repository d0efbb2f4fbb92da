// The handlers of ``StoicMetricsFactory``: each forwards to one series handle of the spool.
#if SwiftMetrics
  import CoreMetrics
  import StoicTelemetry

  /// A swift-metrics counter over a ``CounterSeries``.
  final class StoicCounterHandler: CounterHandler {
    let series: CounterSeries
    init(_ series: CounterSeries) { self.series = series }
    func increment(by amount: Int64) { series.increment(by: amount) }
    func reset() { series.reset() }
  }

  /// A swift-metrics floating-point counter over a ``FloatingPointCounterSeries``.
  final class StoicFloatingPointCounterHandler: FloatingPointCounterHandler {
    let series: FloatingPointCounterSeries
    init(_ series: FloatingPointCounterSeries) { self.series = series }
    func increment(by amount: Double) { series.increment(by: amount) }
    func reset() { series.reset() }
  }

  /// A swift-metrics meter over a ``GaugeSeries``.
  final class StoicMeterHandler: MeterHandler {
    let series: GaugeSeries
    init(_ series: GaugeSeries) { self.series = series }
    func set(_ value: Int64) { series.set(Double(value)) }
    func set(_ value: Double) { series.set(value) }
    func increment(by amount: Double) { series.increment(by: amount) }
    func decrement(by amount: Double) { series.decrement(by: amount) }
  }

  /// A swift-metrics recorder that aggregates, over a ``HistogramSeries``.
  final class StoicHistogramRecorderHandler: RecorderHandler {
    let series: HistogramSeries
    init(_ series: HistogramSeries) { self.series = series }
    func record(_ value: Int64) { series.record(Double(value)) }
    func record(_ value: Double) { series.record(value) }
  }

  /// A swift-metrics recorder that keeps the last value (a gauge), over a ``GaugeSeries``.
  final class StoicGaugeRecorderHandler: RecorderHandler {
    let series: GaugeSeries
    init(_ series: GaugeSeries) { self.series = series }
    func record(_ value: Int64) { series.set(Double(value)) }
    func record(_ value: Double) { series.set(value) }
  }

  /// A swift-metrics timer over a ``HistogramSeries`` of nanoseconds.
  final class StoicTimerHandler: TimerHandler {
    let series: HistogramSeries
    init(_ series: HistogramSeries) { self.series = series }
    func recordNanoseconds(_ duration: Int64) { series.recordNanoseconds(duration) }
  }
#endif
