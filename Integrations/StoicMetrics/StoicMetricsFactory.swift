// The swift-metrics integration (a `MetricsFactory` over the metrics spool) is built only with
// the `SwiftMetrics` trait: `swift build --traits SwiftMetrics`. A default build compiles this
// target empty and never fetches swift-metrics.
#if SwiftMetrics
  public import CoreMetrics
  public import StoicTelemetry

  /// A swift-metrics backend over a `MetricsSpool`: every counter, meter,
  /// recorder and timer a library makes through swift-metrics becomes a series of the spool,
  /// whose running values survive any crash of the process and whose samples survive power loss
  /// from the next flush on.
  ///
  /// ```swift
  /// MetricsSystem.bootstrap(StoicMetricsFactory(metrics: telemetry.metrics))
  /// ```
  ///
  /// The factory only converts: each handler holds the spool's series handle and forwards to
  /// it, so an increment costs what `CounterSeries.increment(by:)` costs.
  ///
  /// | swift-metrics | spool series |
  /// | --- | --- |
  /// | `Counter` | `MetricsSpool.counter(label:dimensions:)` |
  /// | `FloatingPointCounter` | `MetricsSpool.floatingPointCounter(label:dimensions:)` |
  /// | `Meter`, `Recorder(aggregate: false)`, `Gauge` | `MetricsSpool.gauge(label:dimensions:)` |
  /// | `Recorder(aggregate: true)` | `MetricsSpool.histogram(label:dimensions:bounds:)` with the spool's default bounds |
  /// | `Timer` | `MetricsSpool.timer(label:dimensions:)` (nanoseconds) |
  ///
  /// Destroying a metric keeps its series: its cumulative values stay in the spool, and a
  /// series is sampled only when it changes, so a destroyed one costs nothing more. Making the
  /// same label and dimensions again continues it.
  public struct StoicMetricsFactory: MetricsFactory {
    /// The spool every metric goes to.
    public let metrics: MetricsSpool

    /// A factory over `metrics`.
    public init(metrics: MetricsSpool) {
      self.metrics = metrics
    }

    /// A factory over the telemetry spool's metrics spool:
    /// `MetricsSystem.bootstrap(StoicMetricsFactory(spool: telemetry))`.
    public init(spool: TelemetrySpool) {
      self.metrics = spool.metrics
    }

    /// A counter handler over the spool's counter series `label`.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
      StoicCounterHandler(metrics.counter(label: label, dimensions: dimensions))
    }

    /// A floating-point counter handler over the spool's floating-point counter series `label`.
    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
      -> any FloatingPointCounterHandler
    {
      StoicFloatingPointCounterHandler(
        metrics.floatingPointCounter(label: label, dimensions: dimensions))
    }

    /// A meter handler over the spool's gauge series `label`.
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
      StoicMeterHandler(metrics.gauge(label: label, dimensions: dimensions))
    }

    /// A recorder handler over the spool's histogram series `label` (`aggregate`), or its gauge
    /// series (not `aggregate`: the last value).
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
      -> any RecorderHandler
    {
      if aggregate {
        return StoicHistogramRecorderHandler(
          metrics.histogram(label: label, dimensions: dimensions))
      }
      return StoicGaugeRecorderHandler(metrics.gauge(label: label, dimensions: dimensions))
    }

    /// A timer handler over the spool's timer series `label` (a histogram of nanoseconds).
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
      StoicTimerHandler(metrics.timer(label: label, dimensions: dimensions))
    }

    /// Keeps the counter's series (see the type's documentation).
    public func destroyCounter(_ handler: any CounterHandler) {}

    /// Keeps the floating-point counter's series.
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}

    /// Keeps the meter's series.
    public func destroyMeter(_ handler: any MeterHandler) {}

    /// Keeps the recorder's series.
    public func destroyRecorder(_ handler: any RecorderHandler) {}

    /// Keeps the timer's series.
    public func destroyTimer(_ handler: any TimerHandler) {}
  }
#endif
