import CStoicAtomics
import Dispatch
public import StoicStore

extension MetricsSpool {
  /// Samples every series that changed since its last sample into the journal and syncs it;
  /// when this returns, those samples survive power loss. Observed counters are read first.
  ///
  /// Blocks on the sync: call it from a thread that may block. Flushes (the interval's
  /// included) run one at a time.
  ///
  /// - Throws: `StoreError.Code.closed` after ``close()``; the journal's errors (the values
  ///   stay in the live file and the next flush samples them again; a journal poisoned by a
  ///   failed sync is reopened by the next flush).
  public func flush() throws(StoreError) {
    try flushLock.withLock { (closed) throws(StoreError) in
      guard !closed else {
        throw StoreError(.closed, "the metrics spool is closed", path: directory)
      }
      try flushLocked()
    }
  }

  /// Flushes a last time, stops the interval flush and closes the journal. Handles stay usable:
  /// their updates reach the live file, where the next open (in this boot) finds them; series
  /// made afterwards live in memory. Closing twice does nothing.
  ///
  /// - Throws: The last flush's or the journal's error (the journal is closed either way).
  public func close() throws(StoreError) {
    timer?.cancel()
    try flushLock.withLock { (closed) throws(StoreError) in
      guard !closed else { return }
      closed = true
      registry.withLock { $0.closed = true }
      var failure: StoreError?
      do throws(StoreError) { try flushLocked() } catch { failure = error }
      do throws(StoreError) {
        try journal.withLock { $0 }.close()
      } catch {
        failure = failure ?? error
      }
      if let failure { throw failure }
    }
  }

  /// The interval's flush: a failure is reported, and the next interval tries again.
  func flushOnTimer() {
    do throws(StoreError) {
      try flush()
    } catch  where error.code != .closed {
      events.emit(SpoolEvents.metricsFlushFailed, [("reason", error.description)])
    } catch {}
  }

  /// The flush, under ``flushLock``.
  private func flushLocked() throws(StoreError) {
    publishObservedCounters()
    let series = registry.withLock { $0.ordered }
    let now = context.clock()
    var taken: [(series: MetricsSeries, sample: MetricSample, marker: UInt64)] = []
    context.sampleLock.withLock { _ in
      for one in series {
        let (sample, marker) = one.read(time: now)
        if one.changed(marker: marker, start: sample.startNanoseconds) {
          taken.append((one, sample, marker))
        }
      }
    }
    if !taken.isEmpty {
      let journal = try usableJournal()
      try journal.append(batch: MetricSampleFormat.encodeRecords(taken.map(\.sample)))
      try journal.sync()
      for entry in taken {
        entry.series.markSampled(marker: entry.marker, start: entry.sample.startNanoseconds)
      }
    }
    let limit = options.cardinalityLimit
    let folds = registry.withLock { registry in
      registry.unreportedFolds.keys.sorted().map { registry.foldEvent($0, limit: limit) }
    }
    for (definition, fields) in folds { events.emit(definition, fields) }
  }

  /// Stores each observed counter's value (a lower value starts the series again).
  private func publishObservedCounters() {
    let observers = registry.withLock { registry in
      registry.observers.keys.sorted().compactMap { registry.observers[$0] }
    }
    for observer in observers {
      let value = observer.read()
      let series = observer.series
      context.sampleLock.withLock { _ in
        if value < series.load(MetricsLiveFormat.valueCell) {
          stoic_atomic_store(series.cell(MetricsLiveFormat.startCell), context.clock())
        }
        stoic_atomic_store(series.cell(MetricsLiveFormat.valueCell), value)
      }
    }
  }

  /// The journal, reopened first if a failed sync poisoned it.
  func usableJournal() throws(StoreError) -> Journal {
    let current = journal.withLock { $0 }
    guard current.isPoisoned else { return current }
    try? current.close()
    let reopened = try Journal.open(
      directory: StorePath.join(directory, Self.journalDirectory), fileSystem: fileSystem,
      options: options.journal, events: events)
    journal.withLock { $0 = reopened }
    return reopened
  }
}

/// The interval flush of a metrics spool: a task that sleeps out each interval, holding no
/// thread while it waits, and runs the flush on a `BlockingExecutor` of its own (the package's
/// one home for blocking work: one thread, for as long as the timer lives), so its syncs never
/// hold a thread of Swift's cooperative pool.
final class MetricsFlushTimer: Sendable {
  private let interval: Duration
  private let executor = BlockingExecutor()
  private let task = SleepingLock<Task<Void, Never>?>(nil)

  init(interval: Duration) {
    self.interval = max(interval, .milliseconds(1))
  }

  deinit {
    cancel()
  }

  /// Calls `action` every interval until cancelled (an interval missed while a flush ran is
  /// made up once, at once).
  func start(_ action: @escaping @Sendable () -> Void) {
    let interval = interval
    let executor = executor
    let started = Task.detached(priority: .utility) {
      let clock = ContinuousClock()
      var deadline = clock.now + interval
      while !Task.isCancelled {
        do {
          try await clock.sleep(until: deadline, tolerance: .milliseconds(100))
        } catch {
          return
        }
        await executor.run(action)
        deadline = max(deadline + interval, clock.now)
      }
    }
    task.withLock { $0 = started }
  }

  /// Stops the timer; a flush already running finishes.
  func cancel() {
    task.withLock { task in
      task?.cancel()
      task = nil
    }
  }
}
