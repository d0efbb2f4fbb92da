public import StoicStore

/// A telemetry spool: one directory that keeps an app's logs (and metrics) on the local disk
/// until they are forwarded, the entry point of the telemetry layer.
///
/// ```swift
/// let telemetry = try TelemetrySpool.open(at: "/var/lib/app/telemetry")
/// telemetry.logs.log(level: .info, label: "app", message: "started")
/// try telemetry.close()
/// ```
///
/// ## Directory
///
/// - `spool.lock`: locked while the spool is open, holding the holder's process id: a second
///   opener, in this process or another, gets ``StoreError/Code/locked`` naming that process.
/// - `spool.id`: the spool's ``identity``, written once, durably, when the spool is created.
/// - `logs/`: the log spool's journal (``LogSpool``).
/// - `metrics/`: the metrics spool's files.
/// - `drops`: the persistent drop counters (``SpoolDropCounters``).
///
/// The spool's own events and those of its journals are reported to the sink given to
/// ``open(at:options:fileSystem:events:)`` and written into the log spool under the label
/// ``LogSpool/eventLabel``; ``eventCatalog`` lists every one of them.
///
/// Thread-safe; its methods block (see ``LogSpool`` for what the log call costs).
public final class TelemetrySpool: Sendable {
  /// The spool's directory.
  public let directory: String
  /// The spool's identity, from `spool.id`.
  public let identity: SpoolIdentity
  /// The log spool.
  public let logs: LogSpool

  // MARK: The metrics spool (wired when it lands)
  //
  // `public let metrics: MetricsSpool`, opened in `open(at:options:fileSystem:events:)` right
  // after the log spool: `MetricsSpool.open(directory: Path.join(root, "metrics"), fileSystem:
  // fileSystem, options: options.metrics, events: logs.eventSink, dropCounters: dropCounters)`
  // (its events are written into the log spool like the spool's own); then, for every
  // `SpoolDropReason`, `metrics.observeCounter(label: "stoic.spool.dropped", dimensions:
  // [("reason", reason.description)]) { dropCounters.counts[reason] }`, so the drop counts are
  // forwarded as a metric. `flush()` writes a sample after the log spool's flush; `close()`
  // closes it after the log spool and before the drop counters.

  /// The drop counters the log spool (and the metrics spool) count into.
  public let dropCounters: SpoolDropCounters
  let lock: SpoolLock
  let closed = SleepingLock(false)

  /// Every event a telemetry spool can report: the storage core's and the spool layer's.
  public static let eventCatalog = EventCatalog(
    combining: [StoreEvents.catalog, SpoolEvents.catalog])

  init(
    directory: String, identity: SpoolIdentity, logs: LogSpool, dropCounters: SpoolDropCounters,
    lock: SpoolLock
  ) {
    self.directory = directory
    self.identity = identity
    self.logs = logs
    self.dropCounters = dropCounters
    self.lock = lock
  }

  /// Opens (creating if needed) the spool in the directory `root`.
  ///
  /// - Parameters:
  ///   - root: The spool's directory; created if missing.
  ///   - options: The log spool's options (and the metrics spool's).
  ///   - fileSystem: The door to the disk; by default the real one.
  ///   - events: Where the spool's events are reported (they are also written into the
  ///     spool). Called on the thread that raised them; must not block or call back.
  /// - Returns: The open spool.
  /// - Throws: ``StoreError/Code/locked`` (naming the holder's process id) when another handle
  ///   or process holds the spool; ``StoreError/Code/corrupt`` for damage the options do not
  ///   let it salvage; the file system's errors.
  public static func open(
    at root: String, options: TelemetryOptions = TelemetryOptions(),
    fileSystem: any FileSystem = PosixFileSystem(), events: EventSink = .discard
  ) throws(StoreError) -> TelemetrySpool {
    try fileSystem.createDirectory(root)
    let lock = try SpoolLock.acquire(root: root, fileSystem: fileSystem)
    do throws(StoreError) {
      // Events raised before the log spool exists wait for it, then go through it.
      let early = EarlyEvents()
      let identity = try readIdentity(root: root, fileSystem: fileSystem, events: early.sink)
      let dropCounters = try SpoolDropCounters.open(
        path: Path.join(root, "drops"), fileSystem: fileSystem, events: early.sink)
      let logs: LogSpool
      do throws(StoreError) {
        logs = try LogSpool.open(
          directory: Path.join(root, "logs"), fileSystem: fileSystem, options: options.logs,
          dropCounters: dropCounters, events: events)
      } catch {
        try? dropCounters.close()
        throw error
      }
      for event in early.events { logs.eventSink.emit(event) }
      return TelemetrySpool(
        directory: root, identity: identity, logs: logs, dropCounters: dropCounters, lock: lock)
    } catch {
      try? lock.release()
      throw error
    }
  }

  /// The name of the identity file.
  static let identityName = "spool.id"

  /// Reads `spool.id`, or makes a new identity (durably) when there is none or it is unreadable
  /// (reported with ``SpoolEvents/identityReplaced``; the damaged file is quarantined).
  static func readIdentity(root: String, fileSystem: any FileSystem, events: EventSink)
    throws(StoreError) -> SpoolIdentity
  {
    let path = Path.join(root, identityName)
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

  /// Makes every record logged so far durable (and writes a metrics sample), writes the spool's
  /// pending events, and syncs the drop counters. Blocks for the syncs.
  ///
  /// - Throws: As ``LogSpool/flush()``.
  public func flush() throws(StoreError) {
    try logs.flush()
    // The metrics spool writes and syncs its sample here (see the metrics spool's place above).
  }

  /// Closes the log spool (and the metrics spool), syncs and closes the drop counters and
  /// releases the lock. Closing twice does nothing.
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
    attempt { () throws(StoreError) in try logs.close() }
    // The metrics spool is closed here, before the drop counters it counts into.
    attempt { () throws(StoreError) in try dropCounters.close() }
    attempt { () throws(StoreError) in try lock.release() }
    if let failure { throw failure }
  }

  deinit {
    if !closed.withLock({ $0 }) { try? close() }
  }
}
