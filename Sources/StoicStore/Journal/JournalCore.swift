import Dispatch

/// The mutable state of an open ``Journal``, kept behind its mutex.
struct JournalCore {
  /// A sealed segment: complete, fully synced and covered by a durable marker (or compressed).
  struct Sealed: Sendable, Hashable {
    var first: UInt64
    var kind: JournalFileNames.SegmentKind
    var name: String
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
  /// Records up to this sequence are durable; never beyond the last sequence handed out.
  var durableSequence: UInt64 = 0 {
    didSet { assert(durableSequence <= lastSequence, "durable beyond the last sequence") }
  }
  /// The sequence the last written sync marker claims.
  var markedSequence: UInt64 = 0
  /// Records at or below this are dropped (the checkpoint's low-water mark).
  var lowWater: UInt64 = 0
  /// Records appended since the last sync.
  var unsyncedRecords = 0
  /// A sync is running outside the lock: the active handle must not be replaced or closed.
  var syncInFlight = false
  /// Threads waiting for a sync (or for the lock to be free of one) to finish.
  /// Each waits for `sequence` to be durable (`UInt64.max`: for the sync to end).
  var waiters: [(sequence: UInt64, semaphore: DispatchSemaphore)] = []
  /// Appenders that wrote and will wait for durability but have not yet reached the wait: a
  /// group-commit leader gathers records only while this is above zero. Never negative.
  var pendingDurable = 0 {
    didSet { assert(pendingDurable >= 0, "more appenders left the durable wait than entered it") }
  }
  /// Signalled to cut a group-commit leader's wait short.
  var leaderWake: DispatchSemaphore?
  /// How many appenders the last sync released: its leader and the waiters it covered. A
  /// group-commit leader that has gathered fewer waits a little for the others to come back.
  var lastGroup = 1
  /// How long the last sync of the active segment took: the most a leader waits for appenders
  /// that are not yet on their way.
  var lastSyncDuration: Duration = .zero
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
    for semaphore in sealWaiters { semaphore.signal() }
    sealWaiters = []
    var left: [(sequence: UInt64, semaphore: DispatchSemaphore)] = []
    for waiter in waiters {
      if waiter.sequence == UInt64.max { waiter.semaphore.signal() } else { left.append(waiter) }
    }
    waiters = left
  }

  /// Wakes every waiter.
  mutating func wakeAll() {
    for waiter in waiters { waiter.semaphore.signal() }
    waiters = []
  }

  /// Wakes the waiters whose sequence is durable now; returns how many it woke and whether
  /// any other is left waiting for a record.
  mutating func wakeCovered() -> (woken: Int, othersWaiting: Bool) {
    var left: [(sequence: UInt64, semaphore: DispatchSemaphore)] = []
    var others = false
    var woken = 0
    for waiter in waiters {
      if waiter.sequence <= durableSequence {
        waiter.semaphore.signal()
        woken += 1
      } else {
        left.append(waiter)
        if waiter.sequence != UInt64.max { others = true }
      }
    }
    waiters = left
    return (woken, others)
  }

  /// Ends a gathering group-commit leader's wait once nobody is between a write and its wait
  /// and at least as many appenders as the last sync released are waiting (the leader
  /// included).
  func wakeLeaderIfGathered() {
    guard let leaderWake, pendingDurable == 0 else { return }
    let gathered = 1 + waiters.count { $0.sequence != UInt64.max }
    if gathered >= lastGroup { leaderWake.signal() }
  }
}
