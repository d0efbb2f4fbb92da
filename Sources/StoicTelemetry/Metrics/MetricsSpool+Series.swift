extension MetricsSpool {
  /// The handle of the counter series `label` with `dimensions`, made if needed (with the
  /// cardinality limit applied: a name's series beyond it fold into its overflow series).
  ///
  /// Never fails: where the live file cannot hold the series (a full disk when a new live file
  /// is needed, or after ``close()``), it lives in memory and
  /// ``SpoolEvents/metricsSeriesNotPersisted`` says so. Takes the registry lock; keep the
  /// handle rather than making it for every update.
  ///
  /// - Parameters:
  ///   - label: The metric's name. Names, keys and values longer than 256 UTF-8 bytes are cut.
  ///   - dimensions: Its attributes (sorted by key; at most 32 are kept).
  public func counter(label: String, dimensions: [(String, String)] = []) -> CounterSeries {
    CounterSeries(series(MetricSeriesKey(kind: .counter, name: label, dimensions: dimensions)))
  }

  /// The handle of the floating-point counter series `label` with `dimensions`, made if needed
  /// (as ``counter(label:dimensions:)``).
  public func floatingPointCounter(label: String, dimensions: [(String, String)] = [])
    -> FloatingPointCounterSeries
  {
    FloatingPointCounterSeries(
      series(MetricSeriesKey(kind: .floatingPointCounter, name: label, dimensions: dimensions)))
  }

  /// The handle of the gauge series `label` with `dimensions`, made if needed (as
  /// ``counter(label:dimensions:)``): for swift-metrics meters and recorders that do not
  /// aggregate.
  public func gauge(label: String, dimensions: [(String, String)] = []) -> GaugeSeries {
    GaugeSeries(series(MetricSeriesKey(kind: .gauge, name: label, dimensions: dimensions)))
  }

  /// The handle of the histogram series `label` with `dimensions` and bucket `bounds`, made if
  /// needed (as ``counter(label:dimensions:)``).
  ///
  /// - Parameters:
  ///   - label: The metric's name (as for ``counter(label:dimensions:)``).
  ///   - dimensions: Its attributes (as for ``counter(label:dimensions:)``).
  ///   - bounds: The buckets' upper bounds, finite, strictly increasing, at most 256; nil or
  ///     invalid bounds give ``MetricsOptions/histogramBounds``. The bounds are part of the
  ///     series' identity.
  public func histogram(
    label: String, dimensions: [(String, String)] = [], bounds: [Double]? = nil
  ) -> HistogramSeries {
    let chosen = bounds.flatMap { MetricHistogram.isValid(bounds: $0) ? $0 : nil }
    return HistogramSeries(
      series(
        MetricSeriesKey(
          kind: .histogram, name: label, dimensions: dimensions,
          bounds: chosen ?? validBounds(options.histogramBounds))))
  }

  /// The handle of the timer series `label` with `dimensions`: a histogram of durations in
  /// nanoseconds (unit `ns`) with ``MetricsOptions/timerBounds``, made if needed (as
  /// ``counter(label:dimensions:)``). Record with ``HistogramSeries/recordNanoseconds(_:)``.
  public func timer(label: String, dimensions: [(String, String)] = []) -> HistogramSeries {
    HistogramSeries(
      series(
        MetricSeriesKey(
          kind: .histogram, name: label, unit: "ns", dimensions: dimensions,
          bounds: validBounds(options.timerBounds))))
  }

  /// Publishes a counter owned elsewhere as the counter series `label` with `dimensions`: at
  /// every sample the spool calls `read` and stores what it returns as the series' cumulative
  /// value (a value below the previous one starts it again, with a new start time). The series
  /// is sampled, like any other, when its value changed.
  ///
  /// `read` is called on the flushing thread, outside the spool's locks; it must be quick and
  /// must not flush or close the spool.
  ///
  /// - Returns: The observation; publishing stops when it is cancelled or released.
  public func observeCounter(
    label: String, dimensions: [(String, String)] = [],
    read: @escaping @Sendable () -> UInt64
  ) -> MetricsObservation {
    let observed = series(MetricSeriesKey(kind: .counter, name: label, dimensions: dimensions))
    let number = registry.withLock { registry -> Int in
      let number = registry.nextObserver
      registry.nextObserver += 1
      registry.observers[number] = MetricsRegistry.Observer(series: observed, read: read)
      return number
    }
    return MetricsObservation { [weak self] in
      _ = self?.registry.withLock { $0.observers.removeValue(forKey: number) }
    }
  }

  /// The series of `key`, made if needed; events raised once the lock is released.
  func series(_ key: MetricSeriesKey) -> MetricsSeries {
    var pending: MetricsRegistry.PendingEvents = []
    let found = registry.withLock { registry in
      registry.series(
        for: key, limit: max(options.cardinalityLimit, 0), context: context, events: &pending)
    }
    for (definition, fields) in pending { events.emit(definition, fields) }
    return found
  }

  /// `bounds` if valid, else OpenTelemetry's default.
  private func validBounds(_ bounds: [Double]) -> [Double] {
    MetricHistogram.isValid(bounds: bounds) ? bounds : MetricHistogram.defaultBounds
  }
}

/// A counter owned elsewhere that a ``MetricsSpool`` publishes as a series: made by
/// ``MetricsSpool/observeCounter(label:dimensions:read:)``.
///
/// At every sample the spool calls the reader and stores what it returns as the series' value
/// (a value below the previous one starts the series again, with a new start time). Publishing
/// stops when ``cancel()`` is called or this object is released; the series keeps its last
/// value.
public final class MetricsObservation: Sendable {
  private let stop: @Sendable () -> Void

  init(stop: @escaping @Sendable () -> Void) {
    self.stop = stop
  }

  deinit {
    stop()
  }

  /// Stops calling the reader.
  public func cancel() {
    stop()
  }
}
