import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LogSpool {
  /// Logs one record: the time is taken here, the record sized, then encoded in place into the
  /// journal's mapped tail. The same as ``log(_:)`` with a ``LogRecordInput`` of these fields.
  ///
  /// When this returns a sequence the record is in the kernel (it survives a crash of the
  /// process); at or above ``LogSpoolOptions/durableLevel`` it is also durable (it survives a
  /// power loss), the sync shared with concurrent callers. Otherwise it becomes durable within
  /// ``LogSpoolOptions/maxDelay``.
  ///
  /// Never throws and never traps. A record that cannot be stored is counted as dropped in
  /// ``dropCounters`` and `nil` is returned: too large (``SpoolDropReason/encoding``), the
  /// spool full (``SpoolDropReason/quota``), a disk error (``SpoolDropReason/diskError``) or the
  /// spool closed (``SpoolDropReason/afterClose``, and ``SpoolEvents/recordsAfterClose`` once).
  ///
  /// Costs no allocation of its own below the durable level (the journal's mapped append and the
  /// encoding into it); at the durable level the caller waits for a sync. See BENCHMARKS.md for
  /// what it costs.
  ///
  /// - Parameters:
  ///   - level: The record's level.
  ///   - label: The logger's label.
  ///   - message: The message.
  ///   - metadata: Structured metadata.
  ///   - source: The module or subsystem that logged it.
  ///   - file: The source file of the call.
  ///   - function: The function of the call.
  ///   - line: The line of the call.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @inlinable
  @discardableResult
  public func log(
    level: LogLevel, label: String, message: String, metadata: LogMetadata = [:],
    source: String = "", file: String = #fileID, function: String = #function,
    line: UInt = #line
  ) -> UInt64? {
    log(
      LogRecordInput(
        level: level, label: label, message: message, metadata: metadata, source: source,
        file: file, function: function, line: line))
  }

  /// Logs `record`: the time is taken here, the record sized, then encoded in place into the
  /// journal's mapped tail (see ``log(level:label:message:metadata:source:file:function:line:)``
  /// for what a returned sequence guarantees, and what a drop costs).
  ///
  /// - Parameter record: What was logged, borrowed for the call.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @discardableResult
  public func log(_ record: LogRecordInput) -> UInt64? {
    logged(write(record))
  }

  /// Logs `record` with `metadata` in place of ``LogRecordInput/metadata`` (which is not read):
  /// the pairs are sized and encoded where they are, so a log handler that has nothing to merge
  /// into the call's metadata builds no dictionary for it. Otherwise as ``log(_:)``. With
  /// ``LogSpoolOptions/redactedKeys`` set, the pairs are copied into a ``LogMetadata`` first
  /// (one allocation), so that redaction sees them as always.
  ///
  /// - Parameters:
  ///   - record: What was logged but its metadata, borrowed for the call.
  ///   - metadata: The record's metadata, walked twice (see ``LogMetadataPairs``).
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @discardableResult
  public func log(_ record: LogRecordInput, metadata: some LogMetadataPairs) -> UInt64? {
    guard options.redaction.isEmpty else {
      var copy = record
      copy.metadata = LogMetadata(pairs: metadata)
      return logged(write(copy))
    }
    return logged(append(record, metadata: metadata, time: WallClock.nanoseconds()))
  }

  /// What a log call returns once it wrote (or dropped) its record: runs the maintenance it
  /// asked for when maintenance is inline.
  private func logged(_ sequence: UInt64?) -> UInt64? {
    if !options.backgroundMaintenance, maintenanceRequested.load(ordering: .relaxed) {
      runRequestedMaintenanceInline()
    }
    return sequence
  }

  /// The log path: size, admit, append (encoded in place), account. Used for the app's records
  /// and the spool's own events alike.
  func write(_ record: LogRecordInput) -> UInt64? {
    let time = WallClock.nanoseconds()
    // Listed keys' values are replaced before anything is sized or written.
    guard let redacted = options.redaction.redacted(record.metadata) else {
      return append(record, time: time)
    }
    var copy = record
    copy.metadata = redacted
    return append(copy, time: time)
  }

  /// Sizes, admits and appends `record`, logged at `time`.
  private func append(_ record: LogRecordInput, time: Int64) -> UInt64? {
    append(record, metadata: record.metadata, time: time)
  }

  /// Sizes, admits and appends `record` with `metadata` in place of its own, logged at `time`.
  private func append(
    _ record: LogRecordInput, metadata: some LogMetadataPairs, time: Int64
  ) -> UInt64? {
    let size = LogRecordFormat.encodedSize(record, metadata: metadata)
    guard size <= options.maxRecordSize else {
      dropCounters.add(1, reason: .encoding)
      return nil
    }
    var durable = false
    if let durableLevel, record.level >= durableLevel { durable = true }
    // A durable record is followed by a sync marker: counted with it, so that the estimate
    // stays above the journal's size.
    let cost =
      UInt64(Journal.recordFrameSize(payloadCount: size))
      + (durable ? UInt64(Journal.syncMarkerSize) : 0)
    guard admit(cost, time: time) else { return nil }
    var attempts = 0
    while attempts < 2 {
      attempts += 1
      guard writable.load(ordering: .relaxed), let journal = currentJournal() else { break }
      do throws(StoreError) {
        let sequence = try journal.append(count: size, durable: durable) { buffer in
          LogRecordFormat.encode(record, metadata: metadata, timeNanoseconds: time, into: buffer)
        }
        appendedBytes.add(cost, ordering: .relaxed)
        return sequence
      } catch {
        // A journal replaced (reopened) while this call used it: once more with the new one.
        if error.code == .closed, currentJournal() !== journal { continue }
        if error.code == .invalidArgument {
          dropCounters.add(1, reason: .encoding)
          return nil
        }
        writeFailed(error, journal: journal)
        break
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

  /// How often a log call past the high-water mark asks for a quota check: every 5 ms in the
  /// background; every call inline (where the check runs when the call returns, so that a
  /// run on the simulated disk does the same whatever the clock).
  var quotaCheckInterval: Int64 { options.backgroundMaintenance ? 5_000_000 : 0 }

  /// Asks for a quota check unless one was asked for less than ``quotaCheckInterval`` ago.
  func requestQuotaCheck(time: Int64) {
    requestMaintenance(gate: nextQuotaCheck, time: time, interval: quotaCheckInterval)
  }

  /// Asks for maintenance unless the `gate` (a wall-clock time in nanoseconds) is still ahead of
  /// `time`; moves it `interval` on. Keeps a stream of log calls (past the high-water mark, or
  /// dropping after a disk error) from asking on every call.
  func requestMaintenance(gate: borrowing Atomic<Int64>, time: Int64, interval: Int64) {
    let next = gate.load(ordering: .relaxed)
    guard time >= next,
      gate.compareExchange(expected: next, desired: time &+ interval, ordering: .relaxed)
        .exchanged
    else { return }
    requestMaintenance()
  }

  /// How often dropping log calls ask for maintenance (recovery, drop events): every 10 ms in
  /// the background; every call inline (where asking only sets a flag).
  var dropCheckInterval: Int64 { options.backgroundMaintenance ? 10_000_000 : 0 }

  /// A write failed: the spool stops taking records (later calls drop at once) until
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
  /// sleeps, on the logging thread).
  static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(
      tv_sec: Int(clamping: seconds), tv_nsec: Int(clamping: attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
  }
}
