public import StoicStore

/// A telemetry spool: one directory that keeps an app's logs, metrics and spans on the local
/// disk until they are forwarded, the entry point of the telemetry layer.
///
/// ```swift
/// let telemetry = try TelemetrySpool.open(at: "/var/lib/app/telemetry")
/// telemetry.logs.log(level: .info, label: "app", message: "started")
/// telemetry.metrics.counter(label: "app.starts").increment()
/// try telemetry.close()
/// ```
///
/// ## Directory
///
/// - `spool.lock`: locked while the spool is open, holding the holder's process id: a second
///   opener, in this process or another, gets `StoreError.Code.locked` naming that process.
/// - `spool.id`: the spool's ``identity``, written once, durably, when the spool is created.
/// - `logs/`: the log spool's journal (``LogSpool``).
/// - `metrics/`: the metrics spool's files (``MetricsSpool``). The drop counts are published
///   there as the counter ``droppedRecordsMetric`` with a `reason` dimension, so they are
///   forwarded with the other metrics and the collector's side sees the loss too.
/// - `spans/`: the span spool's journal (``SpanSpool``), made when the options ask for spans
///   (``TelemetryOptions/spans``) and opened whenever it exists; its drops are counted apart,
///   in `span-drops`, and published as ``droppedRecordsMetric`` with the dimension
///   `signal=spans` beside the `reason`.
/// - `drops`: the persistent drop counters of the log spool (``SpoolDropCounters``).
///
/// The spool's own events and those of its journals are reported to the sink given to
/// ``open(at:options:fileSystem:events:)`` and written into the log spool under the label
/// ``RecordSpool/eventLabel``; ``eventCatalog-type.property`` lists every one of them.
///
/// Thread-safe; its methods block (see ``LogSpool`` for what the log call costs).
public final class TelemetrySpool: Sendable {
  /// The spool's directory.
  public let directory: String
  /// The spool's identity, from `spool.id`.
  public let identity: SpoolIdentity
  /// The log spool.
  public let logs: LogSpool

  /// The metrics spool.
  public let metrics: MetricsSpool
  /// The span spool, or `nil` when the options ask for none and the spool has none. Open ends
  /// the spans a crash cut short (``SpanSpool``); close ends those still open.
  public let spans: SpanSpool?
  /// The spans open ended as unfinished: those a crash of the last process cut short.
  public let spansEndedAtOpen: Int
  /// The observations that publish the drop counts as ``droppedRecordsMetric``.
  let dropObservations: [MetricsObservation]

  /// The metric the drop counts are published as: a monotonic counter per `reason` (`quota`,
  /// `age`, `disk_error`, `encoding`).
  public static let droppedRecordsMetric = "stoic.spool.dropped"

  /// The drop counters the log spool (and the metrics spool) count into.
  public let dropCounters: SpoolDropCounters
  /// The drop counters the span spool counts into (`nil` without a span spool).
  public let spanDropCounters: SpoolDropCounters?
  let lock: SpoolLock
  let closed = SleepingLock(false)
  /// The first sequence of the span spool this process appends: every span started before it
  /// was ended at open, so the close looks for open spans from here on.
  let spansAppendedFrom: UInt64

  /// Every event a telemetry spool can report, and no other: the storage core's that its
  /// layers raise (``SpoolEvents/storeCatalog``: a spool keeps no outbox) and the spool
  /// layer's (``SpoolEvents/catalog``).
  public static let eventCatalog = EventCatalog(
    combining: [SpoolEvents.storeCatalog, SpoolEvents.catalog])

  init(
    directory: String, identity: SpoolIdentity, logs: LogSpool, metrics: MetricsSpool,
    spans: SpanSpool?, spansEndedAtOpen: Int, dropCounters: SpoolDropCounters,
    spanDropCounters: SpoolDropCounters?, lock: SpoolLock
  ) {
    self.directory = directory
    self.identity = identity
    self.logs = logs
    self.metrics = metrics
    self.spans = spans
    self.spansEndedAtOpen = spansEndedAtOpen
    spansAppendedFrom = (spans?.lastSequence ?? 0) &+ 1
    dropObservations =
      SpoolDropReason.allCases.map { reason in
        metrics.observeCounter(
          label: Self.droppedRecordsMetric, dimensions: [("reason", reason.description)]
        ) { dropCounters.counts[reason] }
      }
      + SpoolDropReason.allCases.compactMap { reason in
        spanDropCounters.map { counters in
          metrics.observeCounter(
            label: Self.droppedRecordsMetric,
            dimensions: [("reason", reason.description), ("signal", "spans")]
          ) { counters.counts[reason] }
        }
      }
    self.dropCounters = dropCounters
    self.spanDropCounters = spanDropCounters
    self.lock = lock
  }

  /// Opens (creating if needed) the spool in the directory `root`.
  ///
  /// - Parameters:
  ///   - root: The spool's directory; created if missing.
  ///   - options: The log spool's and the metrics spool's options.
  ///   - fileSystem: The door to the disk; by default the real one.
  ///   - events: Where the spool's events are reported (they are also written into the
  ///     spool). Called on the thread that raised them; must not block or call back.
  /// - Returns: The open spool.
  /// - Throws: `StoreError.Code.invalidArgument` for an empty `root` (which would put the
  ///   spool in `/`) and for a `root` that is a symbolic link (refused, never followed: give
  ///   the directory it points to); `StoreError.Code.locked` (naming the holder's process id) when another
  ///   handle or process holds the spool; `StoreError.Code.corrupt` for damage the options do
  ///   not let it salvage; the file system's errors.
  public static func open(
    at root: String, options: TelemetryOptions = TelemetryOptions(),
    fileSystem: any FileSystem = PosixFileSystem(), events: EventSink = .discard
  ) throws(StoreError) -> TelemetrySpool {
    guard !root.isEmpty else {
      throw StoreError(.invalidArgument, "the spool's directory is an empty path")
    }
    // A symbolic link is refused, not followed: one to `/` or to another app's directory would
    // put the spool (and its quota's removals) there.
    guard try !fileSystem.isSymbolicLink(root) else {
      throw StoreError(
        .invalidArgument,
        "the spool's directory \(root) is a symbolic link: give the directory it points to",
        path: root)
    }
    try fileSystem.createDirectoryDurably(root)
    let lock = try SpoolLock.acquire(root: root, fileSystem: fileSystem)
    do throws(StoreError) {
      // Events raised before the log spool exists wait for it, then go through it.
      let early = EarlyEvents()
      let identity = try readIdentity(root: root, fileSystem: fileSystem, events: early.sink)
      let dropCounters = try SpoolDropCounters.open(
        path: StorePath.join(root, "drops"), fileSystem: fileSystem, events: early.sink)
      let logs: LogSpool
      do throws(StoreError) {
        logs = try LogSpool.open(
          directory: StorePath.join(root, "logs"), fileSystem: fileSystem, options: options.logs,
          dropCounters: dropCounters, events: events)
      } catch {
        try? dropCounters.close()
        throw error
      }
      for event in early.events { logs.eventSink.emit(event) }
      let metrics: MetricsSpool
      do throws(StoreError) {
        // The metrics spool's events are written into the log spool like the spool's own.
        metrics = try MetricsSpool.open(
          directory: StorePath.join(root, "metrics"), fileSystem: fileSystem,
          options: options.metrics, events: logs.eventSink)
      } catch {
        try? logs.close()
        try? dropCounters.close()
        throw error
      }
      let spans: (spool: SpanSpool, drops: SpoolDropCounters, ended: [SpanEnd])?
      do throws(StoreError) {
        spans = try openSpans(
          root: root, options: options, fileSystem: fileSystem, events: logs.eventSink)
      } catch {
        try? metrics.close()
        try? logs.close()
        try? dropCounters.close()
        throw error
      }
      if let spans, !spans.ended.isEmpty {
        logs.eventSink.emit(
          SpoolEvents.unfinishedSpansEnded,
          [("path", spans.spool.directory), ("count", String(spans.ended.count))])
      }
      return TelemetrySpool(
        directory: root, identity: identity, logs: logs, metrics: metrics, spans: spans?.spool,
        spansEndedAtOpen: spans?.ended.count ?? 0, dropCounters: dropCounters,
        spanDropCounters: spans?.drops, lock: lock)
    } catch {
      try? lock.release()
      throw error
    }
  }

  /// Opens the span spool (`spans/`, its drops in `span-drops`) when the options ask for spans
  /// or it exists, and ends the spans a crash cut short; `nil` otherwise.
  static func openSpans(
    root: String, options: TelemetryOptions, fileSystem: any FileSystem, events: EventSink
  ) throws(StoreError) -> (spool: SpanSpool, drops: SpoolDropCounters, ended: [SpanEnd])? {
    let directory = StorePath.join(root, spansName)
    if options.spans == nil {
      guard try fileSystem.list(root).contains(spansName) else { return nil }
    }
    let drops = try SpoolDropCounters.open(
      path: StorePath.join(root, "span-drops"), fileSystem: fileSystem, events: events)
    do throws(StoreError) {
      // The span spool's events are written into the log spool like the spool's own.
      let spool = try SpanSpool.open(
        directory: directory, fileSystem: fileSystem, options: options.spans ?? options.logs,
        dropCounters: drops, events: events)
      do throws(StoreError) {
        // The process that started the spans still open here is gone: a crash cut them.
        return (spool, drops, try spool.endUnfinishedSpans())
      } catch {
        try? spool.close()
        throw error
      }
    } catch {
      try? drops.close()
      throw error
    }
  }

  /// The name of the span spool's directory.
  static let spansName = "spans"

  /// The name of the identity file.
  static let identityName = "spool.id"

  /// Reads `spool.id`, or makes a new identity (durably) when there is none or it is unreadable
  /// (reported with ``SpoolEvents/identityReplaced``; the damaged file is quarantined).
  static func readIdentity(root: String, fileSystem: any FileSystem, events: EventSink)
    throws(StoreError) -> SpoolIdentity
  {
    let path = StorePath.join(root, identityName)
    let file = AtomicFile(
      path: path, fileSystem: fileSystem, options: AtomicFile.Options(preflightMargin: 4096),
      events: events)
    func parse(_ bytes: [UInt8]) -> SpoolIdentity? {
      SpoolIdentity(hex: String(decoding: bytes, as: UTF8.self).prefix(32))
    }
    var damage: String?
    do throws(StoreError) {
      if let result = try file.read(validate: { parse($0) != nil }),
        let identity = parse(result.bytes)
      {
        return identity
      }
    } catch  where error.code == .corrupt {
      damage = error.message
    }
    let identity = SpoolIdentity.random()
    try file.write(Array((identity.hex + "\n").utf8))
    if let damage {
      events.emit(
        SpoolEvents.identityReplaced,
        [("path", path), ("identity", identity.hex), ("reason", damage)])
    }
    return identity
  }

  /// The combined event catalog (``eventCatalog``), for an instance.
  public var eventCatalog: EventCatalog { Self.eventCatalog }

  /// The records dropped so far, per reason, over the spool's whole life.
  public var dropCounts: SpoolDropCounts { dropCounters.counts }

  /// Makes every span and every record logged so far durable, writes the spool's pending events, syncs the
  /// drop counters, then writes and syncs a metrics sample of every series that changed (the
  /// drop counts included). Blocks for the syncs.
  ///
  /// - Throws: As ``RecordSpool/flush()`` and ``MetricsSpool/flush()``.
  public func flush() throws(StoreError) {
    try spans?.flush()
    try logs.flush()
    try metrics.flush()
  }

  /// Ends the spans still open as unfinished and closes the span spool, closes the metrics
  /// spool (after a last sample, drop counts included) and the log spool,
  /// syncs and closes the drop counters and releases the lock. Closing twice does nothing.
  ///
  /// - Throws: The first error met; everything is closed all the same.
  public func close() throws(StoreError) {
    let first = closed.withLock { closed -> Bool in
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    var failure: StoreError?
    func attempt(_ step: () throws(StoreError) -> Void) {
      do throws(StoreError) {
        try step()
      } catch {
        failure = failure ?? error
      }
    }
    // The spans still open are ended as unfinished, now; then the span spool and the metrics
    // spool close, so that their last events still go into the open log spool.
    if let spans, let spanDropCounters {
      attempt { () throws(StoreError) in
        try spans.endUnfinishedSpans(at: WallClock.nanoseconds(), from: spansAppendedFrom)
      }
      attempt { () throws(StoreError) in try spans.close() }
      attempt { () throws(StoreError) in try spanDropCounters.close() }
    }
    attempt { () throws(StoreError) in try metrics.close() }
    attempt { () throws(StoreError) in try logs.close() }
    attempt { () throws(StoreError) in try dropCounters.close() }
    attempt { () throws(StoreError) in try lock.release() }
    if let failure { throw failure }
  }

  deinit {
    if !closed.withLock({ $0 }) { try? close() }
  }
}

/// How a ``TelemetrySpool`` is opened: the options of its log spool, its metrics spool and its
/// span spool.
public struct TelemetryOptions: Sendable {
  /// The log spool's options.
  public var logs: LogSpoolOptions
  /// The metrics spool's options.
  public var metrics: MetricsOptions
  /// The span spool's options (a record spool's, as the log spool's: the durable level
  /// applies to ends with status error), or `nil` (the default) for no span spool. A spool
  /// that has one (`spans/` exists) opens it all the same, with ``logs``' options, so that the
  /// spans a crash cut short are ended and forwarded.
  public var spans: LogSpoolOptions?

  /// Creates options; every parameter has the default described on its property.
  public init(
    logs: LogSpoolOptions = LogSpoolOptions(), metrics: MetricsOptions = MetricsOptions(),
    spans: LogSpoolOptions? = nil
  ) {
    self.logs = logs
    self.metrics = metrics
    self.spans = spans
  }
}

/// Holds the events raised while a spool opens, before its log spool exists to write them.
final class EarlyEvents: Sendable {
  private let stored = SleepingLock<[StoreEvent]>([])

  /// A sink that keeps every event raised into it.
  var sink: EventSink {
    EventSink { [stored] event in stored.withLock { $0.append(event) } }
  }

  /// The events kept, in order.
  var events: [StoreEvent] { stored.withLock { $0 } }
}
