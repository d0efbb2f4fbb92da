import Dispatch

/// The mutable state of an open ``Journal``, kept behind its mutex.
struct JournalCore {
  /// A sealed segment: complete, fully synced and covered by a durable marker (or compressed).
  struct Sealed: Sendable, Hashable {
    var first: UInt64
    var kind: JournalFileNames.SegmentKind
    var name: String
    /// The file's size, where the journal learned it without asking (a compressed segment's,
    /// from the open's check of its trailer or from its compression; a sealed `.log` may still
    /// be cut, so it is asked for), so that listing the segments for a quota costs no `stat`
    /// per segment. `nil`: not known.
    var bytes: UInt64? = nil
  }

  /// The segment appends go to.
  struct Active {
    var first: UInt64
    var name: String
    var path: String
    var handle: StoreFileHandle
    /// Where the next frame goes.
    var end: UInt64
    /// Bytes `[0, syncedEnd)` are durable.
    var syncedEnd: UInt64
    /// The shared mapping frames are copied into, covering `[0, mapping.length)` of the file
    /// (preallocated; zeros beyond ``end``), or `nil` while none is made.
    var mapping: (any FileMapping)?
    /// Bytes `[.., zeroedEnd)` beyond ``end`` were written with zeros ahead of the appends
    /// (see ``Journal/writeZeros(through:within:core:)``).
    var zeroedEnd: UInt64 = 0
    /// While zeros ahead are off (``JournalCore/zerosAhead``), where an append next asks
    /// whether the appends since the last sync came fast enough to turn them on.
    var zeroCheckAt: UInt64 = 0
  }

  /// Whether appends write through a file mapping; turned off for the rest of the journal's
  /// life when a mapping cannot be made (the file system cannot map files, or no space could
  /// be reserved), after which positional writes are used.
  var mappingEnabled = true
  /// A segment was filled since open: new segments are then mapped whole at once rather than
  /// grown from one page.
  var filledSegment = false

  /// A segment that was full and replaced by the next one, whose seal (sync, final marker,
  /// cut of the preallocated zeros, sync) has not been made yet: appends need not wait for it.
  /// At most one exists. It is finished before any sync of the active segment, so a record of
  /// the active segment is never durable while this one may still be torn.
  struct Sealing {
    /// The segment as it was when it was replaced (its handle, mapping and end).
    var segment: Active
    /// The last sequence it holds.
    var lastSequence: UInt64
    /// The sequence its last marker claims.
    var markedSequence: UInt64
    /// A thread is making the seal now (outside the lock).
    var claimed = false
  }

  var active: Active?
  /// The previous segment while its seal is pending (see ``Sealing``).
  var sealing: Sealing? {
    didSet {
      // At most one pending seal: a roll replaces the active segment only once the seal of
      // the one before it is finished.
      assert(
        oldValue == nil || sealing == nil || oldValue?.segment.first == sealing?.segment.first,
        "a second seal pending while one is")
    }
  }
  /// Threads waiting for a claimed seal to be finished.
  var sealWaiters: [DispatchSemaphore] = []
  /// The reused buffer appends encode their frames into.
  var scratch: [UInt8] = []
  /// A scratch buffer grown beyond this by a large batch is released after the write.
  static let scratchLimit = 1 << 20
  var sealed: [Sealed] = []
  var lockHandle: StoreFileHandle?
  /// The last sequence handed out; it never goes back.
  var lastSequence: UInt64 = 0 {
    didSet { assert(lastSequence >= oldValue, "the last sequence went back") }
  }
  /// Who syncs for whom (group commit); holds the durable sequence. Open sets it up for the
  /// journal's sync policy.
  var groupCommit = JournalGroupCommit<DispatchSemaphore>(
    durableSequence: 0, gatherLimit: nil, maxRecords: nil)
  /// Records up to this sequence are durable.
  var durableSequence: UInt64 {
    get { groupCommit.durableSequence }
    set { groupCommit.durableSequence = newValue }
  }
  /// The sequence the last written sync marker claims.
  var markedSequence: UInt64 = 0
  /// Records at or below this are dropped (the checkpoint's low-water mark).
  var lowWater: UInt64 = 0
  /// Records appended since the last sync.
  var unsyncedRecords = 0
  /// Whether appends write zeros ahead of themselves now (``JournalZerosAhead``), decided at
  /// each sync of the active segment from the rate of the appends since the one before, and
  /// turned on between syncs once the appends since the last one come fast enough.
  var zerosAhead = true
  /// When the last sync of the active segment ended (`DispatchTime`'s uptime, nanoseconds);
  /// 0 before the first. A number, not an optional `ContinuousClock.Instant`: with one, every
  /// append copied the whole state (BENCHMARKS.md, "zeros ahead only while they pay").
  var lastSyncEnded: UInt64 = 0
  /// Bytes of frames written since open, over every segment (the appends' rate is measured
  /// in it: at full speed a segment fills between two syncs).
  var appendedBytes: UInt64 = 0
  /// ``appendedBytes`` when the last sync ended.
  var appendedAtLastSync: UInt64 = 0
  /// Bytes of frames written since the last sync ended.
  var appendedSinceSync: UInt64 { appendedBytes - min(appendedAtLastSync, appendedBytes) }

  /// Whether the appends since the last sync came at `minimumRate` bytes a second or faster
  /// by `now` (`DispatchTime`'s uptime, nanoseconds; ``JournalZerosAhead``); `nil` before the
  /// first sync.
  func appendsPayForZeros(now: UInt64, minimumRate: UInt64) -> Bool? {
    guard lastSyncEnded > 0 else { return nil }
    return JournalZerosAhead.payOff(
      appended: appendedSinceSync, nanoseconds: now - min(lastSyncEnded, now),
      minimumRate: minimumRate)
  }

  /// Whether the caller is to schedule the interval policy's timed sync: none is scheduled
  /// and the journal is open (then one is, from now).
  mutating func claimFlush() -> Bool {
    guard !flushScheduled, !closed else { return false }
    flushScheduled = true
    return true
  }

  /// Counts `count` bytes of frames written (saturating: a count, never a trap).
  mutating func countAppended(_ count: Int) {
    let (sum, overflow) = appendedBytes.addingReportingOverflow(UInt64(max(count, 0)))
    appendedBytes = overflow ? .max : sum
  }
  /// A sync is running outside the lock (or its leader is gathering or sealing): the active
  /// handle must not be replaced or closed.
  var syncInFlight: Bool { groupCommit.leading }
  /// Threads waiting for the sync in flight (or a claimed seal) to end before they take the
  /// journal exclusively.
  var exclusiveWaiters: [DispatchSemaphore] = []
  /// Signalled to end a gathering group-commit leader's wait.
  var leaderWake: DispatchSemaphore?
  /// Set by a failed sync or rollback; every later call throws it until reopen.
  var poison: StoreError?
  var closed = false
  /// A background flush (``SyncPolicy/interval(_:)``) is scheduled.
  var flushScheduled = false
  /// A background compression run is scheduled and has not started yet.
  var maintenanceScheduled = false
  /// The largest buffer the last reader held.
  var lastReadPeakBytes = 0

  /// Whether the segments keep the journal's layout rules (see `JournalSegmentRules`), as far
  /// as the core knows them: sealed segments in order with one first sequence each, the
  /// active one after them, every sequence within ``JournalFrame/maximumSequence``, and the
  /// low-water mark not beyond the last sequence. For assertions.
  func checkLayout() -> Bool {
    let firsts = sealed.map(\.first) + [sealing?.segment.first, active?.first].compactMap { $0 }
    let ordered = zip(firsts, firsts.dropFirst()).allSatisfy { $0 < $1 }
    let lastInActive = active.map { lastSequence + 1 >= $0.first } ?? true
    return ordered && lastInActive && lastSequence <= JournalFrame.maximumSequence
      && lowWater <= lastSequence && durableSequence <= lastSequence
  }

  /// Throws if the journal cannot be used.
  func checkUsable(_ directory: String) throws(StoreError) {
    if closed { throw StoreError(.closed, "the journal is closed", path: directory) }
    if let poison { throw poison }
  }

  /// Wakes the threads waiting for the end of a sync or of a seal before they take the
  /// journal exclusively, and those waiting for a seal.
  mutating func wakeSealWaiters() {
    for semaphore in sealWaiters + exclusiveWaiters { semaphore.signal() }
    sealWaiters = []
    exclusiveWaiters = []
  }

  /// Wakes every waiter: durable appenders (each finds its record durable, or the journal
  /// unusable) and those waiting to take the journal exclusively.
  mutating func wakeAll() {
    for semaphore in groupCommit.signalAll() + exclusiveWaiters { semaphore.signal() }
    exclusiveWaiters = []
  }
}
