import Dispatch
public import StoicStore
import Synchronization

/// A durable spool of records of one format: records encoded straight into a journal's mapped
/// tail, kept within a byte limit and an age, read back in order by the forwarder and the
/// command-line tool. ``LogSpool`` is its instance for log records; a signal is one format
/// (``SpoolRecordFormat``) and nothing else.
///
/// ## Guarantees
///
/// - **Crash of the process**: when an append returns a sequence, the record is in the kernel
///   (a write into a shared mapping of the journal's active segment): SIGKILL, `fatalError` or
///   a segfault one instruction later loses nothing.
/// - **Power loss**: records the format's writer marks durable (for logs, at or above
///   ``LogSpoolOptions/durableLevel``) are durable before the call returns; concurrent callers
///   share one sync. The others become durable within ``LogSpoolOptions/maxDelay`` (a
///   background sync), or with the next durable record or ``flush()``, whichever comes first.
/// - **Never hurts the host**: an append never traps, never touches the network, and never
///   waits except for its own sync or, with ``LogSpoolFullPolicy/block(timeout:)``, at most the
///   timeout. A disk error (a full disk, an I/O error, a journal poisoned by a failed sync)
///   drops the record, counts it (``SpoolDropReason/diskError``) and raises
///   ``SpoolEvents/writeFailed``; later calls drop at once (an atomic load) until the spool has
///   recovered by itself, off the append path, at most once per
///   ``LogSpoolOptions/recoveryInterval``: it reopens its journal once the file system has
///   ``LogSpoolOptions/resumeFreeSpace``, and raises ``SpoolEvents/writeResumed``.
/// - **Quota and retention**: the journal's segments stay within ``LogSpoolOptions/byteLimit``,
///   and records older than ``LogSpoolOptions/maximumAge`` (by the time the format reads from a
///   record's header) are removed, whole segments at a time, off the append path. Every record
///   dropped is counted per reason in the spool's ``SpoolDropCounters`` (they survive restarts
///   and crashes; a removal of stored records is recorded as under way before it is made, so a
///   crash in the middle counts it exactly once) and reported, aggregated, by
///   ``SpoolEvents/recordsDropped``.
/// - **Its own events**: what the spool and its journal report (`spool.*`, `store.*`) goes to
///   the `EventSink` it was opened with, and the format may write it into the spool as a record
///   (``SpoolRecordFormat/write(event:into:)``; the log spool does, with the label
///   ``eventLabel``), after the call that raised it returned. An event raised while one is
///   being written is passed on but not written (``suppressedEvents`` counts it).
///
/// ## Reading
///
/// ``forEachEncodedRecord(from:through:_:)`` hands out every record's bytes in order, in
/// bounded memory; the format's own readers (for logs, ``forEachRecord(from:through:_:)``)
/// decode them. The forwarder reads a range, sends it, and calls ``dropThrough(_:)`` once it
/// was acknowledged.
///
/// Thread-safe. Every method blocks its caller: call it from a thread of your own, or through
/// `BlockingExecutor`, not from Swift's cooperative pool, except an append of a record that is
/// not durable (for logs, ``log(level:label:message:metadata:source:file:function:line:)``
/// below the durable level), which never waits for the disk.
public final class RecordSpool<Format: SpoolRecordFormat>: Sendable {
  /// The spool's directory: its journal.
  public let directory: String
  /// The options it was opened with.
  public let options: LogSpoolOptions
  /// The persistent drop counters it counts into.
  public let dropCounters: SpoolDropCounters
  /// The level at and above which a record is synced before its append returns:
  /// ``LogSpoolOptions/durableLevel``, or nil under the `noDurableSync` mutation (decided
  /// once here, so that the append path checks no test switch).
  let durableLevel: LogLevel?
  let fileSystem: any FileSystem
  /// Where events go first (the app's sink).
  let appEvents: EventSink
  let state: SleepingLock<State>
  /// The journal appends write into (``State/journal``), found without ``state``'s lock and
  /// without a retain.
  let appendJournal = SpoolAppendJournal()
  /// Whether the journal takes records: false from a disk error until recovery.
  let writable = Atomic<Bool>(true)
  /// Set once ``open(directory:fileSystem:options:dropCounters:events:)`` has the journal in
  /// place: maintenance asked for while the journal opens (its recovery's events) waits for it.
  let ready = Atomic<Bool>(false)
  /// Set by ``close()``.
  let closed = Atomic<Bool>(false)
  /// Set by the first record appended after ``close()``, which raises
  /// ``SpoolEvents/recordsAfterClose``.
  let reportedAfterClose = Atomic<Bool>(false)
  /// Bytes appended since open (frames, and a marker's worth for each durable record).
  let appendedBytes = Atomic<UInt64>(0)
  /// The journal's measured size less ``appendedBytes`` at the time it was measured: the
  /// estimate of the journal's size is their sum (never below the truth).
  let usageBaseline = Atomic<Int64>(0)
  /// No append asks for a quota check before this wall-clock time (nanoseconds).
  let nextQuotaCheck = Atomic<Int64>(0)
  /// No drop asks for maintenance (recovery, drop events) before this wall-clock time.
  let nextDropCheck = Atomic<Int64>(0)
  /// Maintenance was asked for and has not started yet.
  let maintenanceRequested = Atomic<Bool>(false)
  /// Serializes maintenance, retention and ``dropThrough(_:)``; never taken on the append path.
  let maintenanceLock = DispatchSemaphore(value: 1)
  /// The thread background maintenance runs on (only with
  /// ``LogSpoolOptions/backgroundMaintenance``): the package's one home for blocking work, so a
  /// run's syncs and removals never hold a thread of Swift's cooperative pool, nor make
  /// libdispatch add threads. One thread per spool; it ends once the spool is released.
  let maintenanceExecutor: BlockingExecutor?

  /// Set on a thread while it writes one of a spool's own events.
  static var writingEvent: ThreadFlag { ThreadFlag.writingEvent }
  /// Set on a thread while it runs a spool's maintenance.
  static var maintaining: ThreadFlag { ThreadFlag.maintaining }
  /// The most events waiting to be written; more are passed on but not written.
  static var eventQueueLimit: Int { 256 }

  /// What changes, behind one lock; the append path does not take it (``appendJournal``).
  struct State {
    var journal: Journal?
    /// Journals replaced by a recovery or closed, held until no append can be using them
    /// (``SpoolAppendJournal``, ``RecordSpool/releaseRetiredJournals()``).
    var retired: [Journal] = []
    /// Why the journal does not take records (while ``RecordSpool/writable`` is false).
    var failure: StoreError?
    /// The disk-error drop count when the failure began.
    var diskErrorsAtFailure: UInt64 = 0
    /// No recovery is tried before this.
    var nextRecovery = ContinuousClock.now
    /// Events waiting to be written into the spool.
    var pendingEvents: [StoreEvent] = []
    /// Events passed on but not written.
    var suppressedEvents = 0
    /// The counts the last ``SpoolEvents/recordsDropped`` events reported.
    var reportedDrops = SpoolDropCounts()
    /// When the last of those was raised.
    var lastDropReport: ContinuousClock.Instant?
    /// A background run of maintenance is scheduled for later.
    var timerScheduled = false
    /// The time of the first record of each segment (by first sequence), for the age limit.
    var segmentTimes: [UInt64: Int64] = [:]
    /// The age limit is not looked at again before this.
    var nextAgeCheck = ContinuousClock.now
  }

  init(
    directory: String, fileSystem: any FileSystem, options: LogSpoolOptions,
    dropCounters: SpoolDropCounters, events: EventSink
  ) {
    self.directory = directory
    self.fileSystem = fileSystem
    self.options = options
    maintenanceExecutor = options.backgroundMaintenance ? BlockingExecutor() : nil
    self.durableLevel =
      options.mutations.contains(.noDurableSync) ? nil : options.durableLevel
    self.dropCounters = dropCounters
    self.appEvents = events
    self.state = SleepingLock(State(reportedDrops: dropCounters.counts))
  }

  /// Opens (creating if needed) the spool in `directory`.
  ///
  /// Open recovers the journal (a torn tail is cut; damage inside durable records is
  /// quarantined when ``LogSpoolOptions/salvage`` is on), settles a removal of records that a
  /// crash interrupted (counting it exactly once), and measures the journal.
  ///
  /// - Parameters:
  ///   - directory: The spool's directory (`<root>/logs` for the logs of a ``TelemetrySpool``);
  ///     created if missing.
  ///   - fileSystem: The door to the disk.
  ///   - options: Durability, retention and recovery.
  ///   - dropCounters: Where drops are counted.
  ///   - events: Where the spool's and its journal's events are reported (they are also
  ///     written into the spool).
  /// - Returns: The open spool.
  /// - Throws: `StoreError.Code.locked` if another handle or process holds the journal;
  ///   `StoreError.Code.corrupt` for damage when not salvaging; the file system's errors.
  public static func open(
    directory: String, fileSystem: any FileSystem, options: LogSpoolOptions = LogSpoolOptions(),
    dropCounters: SpoolDropCounters, events: EventSink = .discard
  ) throws(StoreError) -> RecordSpool {
    let spool = RecordSpool(
      directory: directory, fileSystem: fileSystem, options: options,
      dropCounters: dropCounters, events: events)
    let journal = try Journal.open(
      directory: directory, fileSystem: fileSystem, options: options.journalOptions,
      events: spool.eventSink)
    spool.replaceJournal(with: journal)
    do throws(StoreError) {
      try spool.settleInterruptedDrop(journal)
      try spool.measure(journal)
    } catch {
      try? journal.close()
      throw error
    }
    dropCounters.observe { [weak spool] in spool?.dropsChanged() }
    spool.ready.store(true, ordering: .releasing)
    spool.requestMaintenance()
    spool.runRequestedMaintenanceInline()
    return spool
  }

  /// Where the spool's own events go: passed on to the app's sink at once, and written into the
  /// spool by its format (``SpoolRecordFormat/write(event:into:)``) once the call that raised
  /// them returned. The telemetry spool hands the log spool's to the layers beside it (the
  /// metrics spool).
  public var eventSink: EventSink {
    EventSink { [weak self] event in self?.raise(event) }
  }

  /// The last sequence handed out (0 for a spool that never held a record).
  public var lastSequence: UInt64 { currentJournal()?.lastSequence ?? 0 }

  /// Records up to this sequence are durable.
  public var durableSequence: UInt64 { currentJournal()?.durableSequence ?? 0 }

  /// Records at or below this sequence were dropped (acknowledged and dropped with
  /// ``dropThrough(_:)``, or removed by the quota or the age limit); reading starts after it.
  public var lowWaterMark: UInt64 { currentJournal()?.lowWaterMark ?? 0 }

  /// Whether the spool takes records now (false from a disk error until it recovered).
  public var isWritable: Bool { writable.load(ordering: .relaxed) }

  /// Events passed on to the app's sink but not written into the spool: raised while one of
  /// the spool's events was being written, or while more than 256 were waiting.
  public var suppressedEvents: Int { state.withLock { $0.suppressedEvents } }

  /// The spool's estimate of its journal's size in bytes: the last measurement plus what was
  /// appended since. Never below the truth (by more than the sync markers written since).
  public var estimatedBytes: UInt64 {
    let baseline = usageBaseline.load(ordering: .relaxed)
    let appended = appendedBytes.load(ordering: .relaxed)
    let sum = baseline &+ Int64(truncatingIfNeeded: appended)
    return sum > 0 ? UInt64(sum) : 0
  }

  /// A drop was counted: asks for maintenance (recovery after a disk error, drop events), at
  /// most once per ``dropCheckInterval``.
  func dropsChanged() {
    guard !closed.load(ordering: .relaxed) else { return }
    requestMaintenance(
      gate: nextDropCheck, time: WallClock.nanoseconds(), interval: dropCheckInterval)
  }

  /// The journal, or `nil` once closed.
  func currentJournal() -> Journal? { state.withLock { $0.journal } }

  /// Puts `journal` in place of the current one (`nil`: none, the spool closes) and points
  /// appends at it; the one it replaces is retired, held until no append can be using it.
  /// Returns the one replaced.
  @discardableResult
  func replaceJournal(with journal: Journal?) -> Journal? {
    let replaced = state.withLock { state -> Journal? in
      let replaced = state.journal
      if let replaced { state.retired.append(replaced) }
      state.journal = journal
      appendJournal.point(at: journal)
      return replaced
    }
    releaseRetiredJournals()
    return replaced
  }

  /// Releases the retired journals when no append is counted in (none can be using them);
  /// otherwise keeps them for a later call (each maintenance run makes one).
  func releaseRetiredJournals() {
    let released = state.withLock { state -> [Journal] in
      guard !state.retired.isEmpty, appendJournal.isIdle else { return [] }
      defer { state.retired = [] }
      return state.retired
    }
    // Released here, outside the lock (a journal's deinit ends its background thread).
    withExtendedLifetime(released) {}
  }

  /// Makes every record appended so far durable, writes the spool's pending events and drop
  /// events, and syncs the drop counters. Blocks for the syncs.
  ///
  /// - Throws: `StoreError.Code.closed` after ``close()``; while the spool is not writable
  ///   after a disk error, that error (the drop counters are synced all the same); the sync's
  ///   error.
  public func flush() throws(StoreError) {
    runMaintenance(force: true)
    guard let journal = currentJournal() else {
      throw StoreError(.closed, "the \(Format.recordKind) spool is closed", path: directory)
    }
    try dropCounters.sync()
    if let failure = state.withLock({ $0.failure }), !writable.load(ordering: .relaxed) {
      throw failure
    }
    try journal.sync()
  }

  /// Writes the pending events, makes everything durable and closes the journal. Appends
  /// after this return `nil` and are counted (``SpoolDropReason/afterClose``). Closing twice does nothing.
  /// Does not close the drop counters (their owner, the ``TelemetrySpool``, does).
  ///
  /// - Throws: The journal's close error (`StoreError.Code.poisoned` after a failed sync).
  public func close() throws(StoreError) {
    guard currentJournal() != nil else { return }
    runMaintenance(force: true)
    maintenanceLock.wait()
    defer { maintenanceLock.signal() }
    closed.store(true, ordering: .relaxed)
    let journal = replaceJournal(with: nil)
    try journal?.close()
  }
}
