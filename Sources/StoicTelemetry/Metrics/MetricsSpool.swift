public import StoicStore

/// The metrics spooler: counters, floating-point counters, gauges, histograms and timers whose
/// running values survive any crash of the process, sampled into a journal that survives power
/// loss up to its last sync, and read back by a forwarder as OTLP-shaped samples.
///
/// ```swift
/// let metrics = try MetricsSpool.open(directory: "/var/lib/app/telemetry/metrics")
/// let requests = metrics.counter(label: "http.requests", dimensions: [("route", "/upload")])
/// requests.increment()  // one atomic add into memory shared with the kernel
/// let latency = metrics.timer(label: "http.duration")
/// latency.recordNanoseconds(1_250_000)
/// ```
///
/// ## How it keeps values
///
/// Every series has a few 8-byte cells in a live file (`live-<n>.map`) mapped shared into the
/// process: a counter's sum, a gauge's value, a histogram's buckets, sum, min and max, and the
/// start of its cumulative values. A handle (``CounterSeries``, ``FloatingPointCounterSeries``,
/// ``GaugeSeries``, ``HistogramSeries``) keeps the address of its cells, so an update is one
/// atomic instruction (or a compare-and-swap loop for doubles) with no lookup, lock or system
/// call: the value is in the kernel's page cache when the call returns, and survives SIGKILL,
/// `fatalError` or a segfault one instruction later. The technique is that of Prometheus'
/// client for Python in multiprocess mode and of Chronicle's off-heap maps.
///
/// Every ``MetricsOptions/flushInterval`` (10 s by default), on ``flush()`` and on ``close()``,
/// the spool samples each series that changed since its last sample (start and sample time,
/// cumulative value; a histogram's count, sum, min, max and bucket counts) into the metrics
/// journal (`samples/`) and syncs it. A series that did not change is not sampled again: its
/// last sample still holds its cumulative value.
///
/// ## Guarantees
///
/// - **Crash of the process**: no update whose call returned is lost. A reopened spool in the
///   same boot of the machine continues from the live file exactly, start times kept.
/// - **Power loss**: at most what changed since the last synced flush is lost, so at most one
///   flush interval (plus the flush's own duration). A sample survives once the flush that
///   wrote it returned. After a restart of the machine the live file cannot be trusted (the
///   kernel may have written back any page of it, stale or torn), so the spool continues every
///   series from its last synced sample. It tells the two apart by the machine's boot identity,
///   written in the header of `live-0.map`: the same boot means only the process ended and the
///   kernel kept every store; another means the machine restarted. The live files of another
///   boot are set aside (`live-<n>.map.stale`, replacing those set aside before) and rebuilt.
/// - A damaged live file never crashes the spool: it is quarantined (renamed, never deleted)
///   and reported with ``SpoolEvents/metricsLiveFileQuarantined``.
/// - Cardinality: at most ``MetricsOptions/cardinalityLimit`` series per metric name and kind;
///   the rest fold into one overflow series (``MetricDimension/overflow``), each fold counted in
///   the series ``foldedSeriesMetric`` and reported (``SpoolEvents/metricsSeriesFolded``).
///
/// ## Threads
///
/// Handles may be used from any thread at once. Making a handle takes the registry lock (and,
/// when a live file is full, makes the next one: a file creation). ``flush()`` and ``close()``
/// block on the journal's sync: call them from a thread that may block, never from Swift's
/// cooperative pool (an async caller hands them to a `BlockingExecutor`). The interval flush
/// runs on a `BlockingExecutor` of its own (one thread), woken by a task that sleeps.
public final class MetricsSpool: Sendable {
  /// The spool's directory: the live files and the journal of samples (`samples/`).
  public let directory: String
  /// What open found: whether the live files were adopted or rebuilt, and why.
  public let recovery: MetricsRecovery
  let options: MetricsOptions
  let events: EventSink
  let fileSystem: any FileSystem
  let context: MetricsSeriesContext
  let registry: SleepingLock<MetricsRegistry>
  /// The journal of samples; replaced when a failed sync poisoned it.
  let journal: SleepingLock<Journal>
  /// Serializes flushes, drops and close; true once closed.
  let flushLock = SleepingLock(false)
  let timer: MetricsFlushTimer?

  /// The counter series that counts, per metric name (dimension `metric`), the series folded
  /// into its overflow series: `stoic.metrics.folded_series`.
  public static let foldedSeriesMetric = "stoic.metrics.folded_series"
  /// The name of the journal's directory inside the spool's.
  static let journalDirectory = "samples"

  private init(
    directory: String, recovery: MetricsRecovery, options: MetricsOptions, events: EventSink,
    fileSystem: any FileSystem, context: MetricsSeriesContext, registry: MetricsRegistry,
    journal: Journal
  ) {
    self.directory = directory
    self.recovery = recovery
    self.options = options
    self.events = events
    self.fileSystem = fileSystem
    self.context = context
    self.registry = SleepingLock(registry)
    self.journal = SleepingLock(journal)
    self.timer = options.flushInterval.map { MetricsFlushTimer(interval: $0) }
  }

  deinit {
    timer?.cancel()
  }

  /// Opens (creating if needed) the metrics spool in `directory`: opens its journal, then
  /// adopts or rebuilds its live files (as the guarantees above say), and starts the interval
  /// flush.
  ///
  /// Blocks on file system calls (and, for a rebuild, on reading the journal).
  ///
  /// - Parameters:
  ///   - directory: The spool's own directory; created if missing.
  ///   - fileSystem: The door to the disk.
  ///   - options: Interval, cardinality limit, bounds, sizes.
  ///   - events: Where the spool's and its journal's events go.
  /// - Returns: The open spool; ``recovery`` says what open found.
  /// - Throws: `StoreError.Code.locked` when another handle or process holds the spool; the
  ///   journal's errors (`StoreError.Code.corrupt` for damage in its durable data) and the
  ///   file system's. A live file that cannot be made is no error: series then live in memory
  ///   (``SpoolEvents/metricsSeriesNotPersisted``).
  public static func open(
    directory: String,
    fileSystem: any FileSystem = PosixFileSystem(),
    options: MetricsOptions = MetricsOptions(),
    events: EventSink = .discard
  ) throws(StoreError) -> MetricsSpool {
    try fileSystem.createDirectoryDurably(directory)
    let journal = try Journal.open(
      directory: StorePath.join(directory, journalDirectory), fileSystem: fileSystem,
      options: options.journal, events: events)
    let context = MetricsSeriesContext(clock: options.clock)
    var registry = MetricsRegistry()
    var recovery = MetricsRecovery()
    do throws(StoreError) {
      let extentSize = max(options.liveFileSize, MetricsOptions.minimumLiveFileSize)
      let (live, loaded, opening) = try MetricsLiveFile.open(
        directory: directory, fileSystem: fileSystem,
        extentSize: (extentSize + 4095) / 4096 * 4096, boot: options.bootIdentity,
        events: events,
        lastSynced: { () throws(StoreError) in
          try lastSamples(in: journal, through: .max, events: events).all
        })
      registry.live = live
      for series in loaded {
        registry.register(
          MetricsSeries(
            key: series.key, cells: series.cells, owner: series.extent, persisted: true,
            context: context))
      }
      if case .rebuilt(let reason) = opening {
        recovery.rebuiltReason = reason
        events.emit(
          SpoolEvents.metricsLiveFileRebuilt,
          [("reason", reason), ("series", "\(loaded.count)")])
      }
    } catch {
      // No live file: the series continue from the journal, in memory.
      do throws(StoreError) {
        for sample in try lastSamples(in: journal, through: .max, events: events).all {
          let heap = MetricsHeapCells(MetricsSeries.cells(continuing: sample))
          registry.register(
            MetricsSeries(
              key: MetricSeriesKey(sample), cells: heap.pointer, owner: heap, persisted: false,
              context: context))
        }
      } catch let readError {
        try? journal.close()
        throw readError
      }
      recovery.liveFileError = error.description
      events.emit(
        SpoolEvents.metricsSeriesNotPersisted, [("metric", "*"), ("reason", error.description)])
    }
    recovery.series = registry.ordered.count
    let spool = MetricsSpool(
      directory: directory, recovery: recovery, options: options, events: events,
      fileSystem: fileSystem, context: context, registry: registry, journal: journal)
    spool.timer?.start { [weak spool] in spool?.flushOnTimer() }
    return spool
  }

  /// How many series the spool holds (overflow series and the fold counters included).
  public var seriesCount: Int {
    registry.withLock { $0.ordered.count }
  }

  /// How many series were folded into overflow series since the spool was made (the sum of
  /// ``foldedSeriesMetric``).
  public var foldedSeriesCount: Int64 {
    registry.withLock { registry in
      registry.ordered.filter { $0.key.name == Self.foldedSeriesMetric }.reduce(0) {
        $0 &+ Int64(bitPattern: $1.load(MetricsLiveFormat.valueCell))
      }
    }
  }

  /// Every series' current value, read now (nothing is written): for inspection and tests.
  public func currentSamples() -> [MetricSample] {
    let series = registry.withLock { $0.ordered }
    let now = context.clock()
    return context.sampleLock.withLock { _ in series.map { $0.read(time: now).sample } }
  }
}
