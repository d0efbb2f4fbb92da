import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RecordSpool {
  /// Appends one record of `size` encoded bytes, written in place by `encode` into the
  /// journal's mapped tail, after it was admitted under the byte limit; `durable` asks for a
  /// sync before the call returns (shared with concurrent callers). The format's writers (for
  /// logs, ``log(_:)``) size the record, decide whether it is durable, and call this; then
  /// ``finishAppend(_:)``.
  ///
  /// Never throws and never traps. A record that cannot be stored is counted as dropped in
  /// ``dropCounters`` and `nil` is returned: larger than ``LogSpoolOptions/maxRecordSize`` or
  /// refused by the journal (``SpoolDropReason/encoding``), the spool full
  /// (``SpoolDropReason/quota``), a disk error (``SpoolDropReason/diskError``) or the spool
  /// closed (``SpoolDropReason/afterClose``, and ``SpoolEvents/recordsAfterClose`` once).
  ///
  /// - Parameters:
  ///   - size: The record's encoded size in bytes.
  ///   - durable: Whether the record is synced before the call returns.
  ///   - time: The wall clock now, in nanoseconds: it gates the quota checks, so it must be
  ///     now, never a time carried by the record (a span's own start or end time).
  ///   - encode: Writes exactly `size` bytes into the buffer it is given.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @inline(__always)
  func appendEncoded(
    size: Int, durable: Bool, time: Int64, encode: (UnsafeMutableRawBufferPointer) -> Void
  ) -> UInt64? {
    guard size <= options.maxRecordSize else {
      dropCounters.add(1, reason: .encoding)
      return nil
    }
    // A durable record is followed by a sync marker: counted with it, so that the estimate
    // stays above the journal's size.
    let cost =
      UInt64(Journal.recordFrameSize(payloadCount: size))
      + (durable ? UInt64(Journal.syncMarkerSize) : 0)
    guard admit(cost, time: time) else { return nil }
    var attempts = 0
    tries: while attempts < 2, writable.load(ordering: .relaxed) {
      attempts += 1
      let attempt = appendJournal.withJournal { journal -> AppendAttempt in
        do throws(StoreError) {
          let sequence = try journal.append(count: size, durable: durable, encodingWith: encode)
          return .appended(sequence)
        } catch {
          // A journal replaced (reopened) while this call used it: once more with the new one.
          if error.code == .closed, !appendJournal.isCurrent(journal) { return .retry }
          if error.code == .invalidArgument { return .refused }
          writeFailed(error, journal: journal)
          return .failed
        }
      }
      switch attempt {
      case .appended(let sequence):
        appendedBytes.add(cost, ordering: .relaxed)
        return sequence
      case .retry: continue
      case .refused:
        dropCounters.add(1, reason: .encoding)
        return nil
      case .failed, nil: break tries
      }
    }
    guard closed.load(ordering: .relaxed) else {
      dropCounters.add(1, reason: .diskError)
      return nil
    }
    dropCounters.add(1, reason: .afterClose)
    if !reportedAfterClose.exchange(true, ordering: .relaxed) {
      appEvents.emit(SpoolEvents.recordsAfterClose, [("path", directory)])
    }
    return nil
  }

  /// How one try of an append into the journal ended.
  enum AppendAttempt {
    /// Written, with this sequence.
    case appended(UInt64)
    /// The journal was replaced meanwhile: try the new one.
    case retry
    /// The journal refused the record (its size).
    case refused
    /// A write failed (the spool stopped taking records), or the journal is closed.
    case failed
  }

  /// What an append returns once it wrote (or dropped) its record: runs the maintenance it
  /// asked for when maintenance is inline.
  @inline(__always)
  func finishAppend(_ sequence: UInt64?) -> UInt64? {
    if !options.backgroundMaintenance, maintenanceRequested.load(ordering: .relaxed) {
      runRequestedMaintenanceInline()
    }
    return sequence
  }

  /// Whether a record of `cost` bytes fits under the byte limit; as the policy says when it
  /// does not (a record dropped here is counted). Asks for a quota check past the high-water
  /// mark, at most once per ``quotaCheckInterval``.
  func admit(_ cost: UInt64, time: Int64) -> Bool {
    let limit = options.recordLimit
    var used = estimatedBytes
    if used + cost <= limit {
      if used + cost >= options.highWater { requestQuotaCheck(time: time) }
      return true
    }
    var policy = options.whenFull
    // The spool's own events never wait for room: maintenance, which makes it, writes them.
    if case .block = policy, Self.writingEvent.isSet { policy = .dropNewest }
    switch policy {
    case .dropOldest:
      requestQuotaCheck(time: time)
      if !options.backgroundMaintenance {
        runRequestedMaintenanceInline()
        used = estimatedBytes
        if used + cost <= limit { return true }
      }
    case .dropNewest:
      requestQuotaCheck(time: time)
    case .block(let timeout):
      let deadline = ContinuousClock.now + timeout
      while ContinuousClock.now < deadline {
        requestMaintenance()
        if !options.backgroundMaintenance { runRequestedMaintenanceInline() }
        if estimatedBytes + cost <= limit { return true }
        let left = deadline - ContinuousClock.now
        if left <= .zero { break }
        Self.sleep(min(left, .milliseconds(1)))
      }
    }
    dropCounters.add(1, reason: .quota)
    return false
  }

  /// How often an append past the high-water mark asks for a quota check: every 5 ms in the
  /// background; every call inline (where the check runs when the call returns, so that a
  /// run on the simulated disk does the same whatever the clock).
  var quotaCheckInterval: Int64 { options.backgroundMaintenance ? 5_000_000 : 0 }

  /// Asks for a quota check unless one was asked for less than ``quotaCheckInterval`` ago.
  func requestQuotaCheck(time: Int64) {
    requestMaintenance(gate: nextQuotaCheck, time: time, interval: quotaCheckInterval)
  }

  /// Asks for maintenance unless the `gate` (a wall-clock time in nanoseconds) is still ahead of
  /// `time`; moves it `interval` on. Keeps a stream of appends (past the high-water mark, or
  /// dropping after a disk error) from asking on every call.
  func requestMaintenance(gate: borrowing Atomic<Int64>, time: Int64, interval: Int64) {
    let next = gate.load(ordering: .relaxed)
    guard time >= next,
      gate.compareExchange(expected: next, desired: time &+ interval, ordering: .relaxed)
        .exchanged
    else { return }
    requestMaintenance()
  }

  /// How often dropping appends ask for maintenance (recovery, drop events): every 10 ms in
  /// the background; every call inline (where asking only sets a flag).
  var dropCheckInterval: Int64 { options.backgroundMaintenance ? 10_000_000 : 0 }

  /// A write failed: the spool stops taking records (later appends drop at once) until
  /// maintenance recovered it, and says so once.
  func writeFailed(_ error: StoreError, journal: Journal) {
    let first = state.withLock { state -> Bool in
      guard state.journal === journal, writable.load(ordering: .relaxed) else { return false }
      writable.store(false, ordering: .relaxed)
      state.failure = error
      state.diskErrorsAtFailure = dropCounters.counts.diskError
      state.nextRecovery = .now + options.recoveryInterval
      assert(
        SpoolRules.takesRecordsWithoutFailure(
          writable: writable.load(ordering: .relaxed), failure: state.failure),
        "@L1: the failure was recorded while the spool took records")
      return true
    }
    guard first else { return }
    raise(
      StoreEvent(
        SpoolEvents.writeFailed, [("path", directory), ("error", String(describing: error))]))
  }

  /// Sleeps the calling thread (never a task of the cooperative pool: only the blocking policy
  /// sleeps, on the appending thread).
  static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(
      tv_sec: Int(clamping: seconds), tv_nsec: Int(clamping: attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
  }
}
