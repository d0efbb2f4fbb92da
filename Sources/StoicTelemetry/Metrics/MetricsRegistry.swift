import StoicStore

/// The series of a metrics spool by identity, the cardinality bookkeeping and the observed
/// counters; kept behind the spool's registry lock. Making a series is the only path that
/// changes it, and never the hot path: handles keep their series.
struct MetricsRegistry {
  /// An externally-owned counter published as a series.
  struct Observer {
    var series: MetricsSeries
    var read: @Sendable () -> UInt64
  }

  /// Where new series get their cells; nil where the live file is unavailable.
  var live: MetricsLiveFile?
  var series: [MetricSeriesKey: MetricsSeries] = [:]
  /// Every series in the order it was made: the order of samples.
  var ordered: [MetricsSeries] = []
  /// Non-overflow series per metric name and kind.
  var familyCounts: [MetricSeriesKey.Family: Int] = [:]
  var observers: [Int: Observer] = [:]
  var nextObserver = 0
  /// Folds per metric name not yet reported by an event.
  var unreportedFolds: [String: UInt64] = [:]
  /// Metric names whose first fold since open was reported.
  var foldsReported: Set<String> = []
  /// Metric names reported as not persisted.
  var notPersistedReported: Set<String> = []
  /// Set by close: new series then live in memory.
  var closed = false

  /// Events to raise once the lock is released (a handler may call back into the spool).
  typealias PendingEvents = [(EventDefinition, [(String, String)])]

  /// Registers a series found at open.
  mutating func register(_ made: MetricsSeries) {
    series[made.key] = made
    ordered.append(made)
    if !made.key.isOverflow { familyCounts[made.key.family, default: 0] += 1 }
  }

  /// The series of `key`, made if needed; beyond the cardinality limit, the overflow series of
  /// its name (the fold counted in ``MetricsSpool/foldedSeriesMetric``).
  mutating func series(
    for key: MetricSeriesKey, limit: Int, context: MetricsSeriesContext,
    events: inout PendingEvents
  ) -> MetricsSeries {
    if let existing = series[key] { return existing }
    guard !key.isOverflow, key.name != MetricsSpool.foldedSeriesMetric,
      familyCounts[key.family, default: 0] >= limit
    else { return make(key, context: context, events: &events) }
    let overflow = series[key.overflow] ?? make(key.overflow, context: context, events: &events)
    let counterKey = MetricSeriesKey(
      kind: .counter, name: MetricsSpool.foldedSeriesMetric, dimensions: [("metric", key.name)])
    let counter = series[counterKey] ?? make(counterKey, context: context, events: &events)
    CounterSeries(counter).increment()
    unreportedFolds[key.name, default: 0] += 1
    if foldsReported.insert(key.name).inserted {
      events.append(foldEvent(key.name, limit: limit))
    }
    return overflow
  }

  /// The fold event of `name` for the folds not yet reported, which it clears.
  mutating func foldEvent(_ name: String, limit: Int) -> (EventDefinition, [(String, String)]) {
    let folded = unreportedFolds.removeValue(forKey: name) ?? 0
    let counterKey = MetricSeriesKey(
      kind: .counter, name: MetricsSpool.foldedSeriesMetric, dimensions: [("metric", name)])
    let total = series[counterKey].map { CounterSeries($0).value } ?? Int64(folded)
    return (
      SpoolEvents.metricsSeriesFolded,
      [("metric", name), ("limit", "\(limit)"), ("folded", "\(folded)"), ("total", "\(total)")]
    )
  }

  /// Makes and registers a series: in the live file, or in memory where it cannot be.
  private mutating func make(
    _ key: MetricSeriesKey, context: MetricsSeriesContext, events: inout PendingEvents
  ) -> MetricsSeries {
    let cells = MetricsSeries.initialCells(key, now: context.clock())
    var reason = "the spool is closed"
    if let live, !closed {
      do throws(StoreError) {
        let (pointer, extent) = try live.allocate(key: key, cells: cells)
        let made = MetricsSeries(
          key: key, cells: pointer, owner: extent, persisted: true, context: context)
        register(made)
        return made
      } catch {
        reason = error.description
      }
    } else if live == nil {
      reason = "the live file is unavailable"
    }
    if notPersistedReported.insert(key.name).inserted {
      events.append(
        (SpoolEvents.metricsSeriesNotPersisted, [("metric", key.name), ("reason", reason)]))
    }
    let heap = MetricsHeapCells(cells)
    let made = MetricsSeries(
      key: key, cells: heap.pointer, owner: heap, persisted: false, context: context)
    register(made)
    return made
  }
}
