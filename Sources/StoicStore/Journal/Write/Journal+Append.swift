import Dispatch

extension Journal {
  /// Appends one record.
  ///
  /// The record is written to the kernel before this returns, so it survives a crash of the
  /// process. Whether it is also durable (survives power loss) when this returns depends on
  /// ``JournalOptions/syncPolicy``, or is forced with `durable: true`.
  ///
  /// - Parameters:
  ///   - payload: The record's bytes, at most ``JournalOptions/maxRecordSize``.
  ///   - durable: Return only once the record is durable, whatever the policy.
  /// - Returns: The record's sequence number.
  /// - Throws: ``StoreError/Code/invalidArgument`` for a payload that is too large;
  ///   ``StoreError/Code/sequenceLimitReached`` once the records reached sequence 2^62 (nothing
  ///   is written); the write's error (``StoreError/Code/diskFull``, ``StoreError/Code/io`` …)
  ///   after rolling the file back to its last good end; ``StoreError/Code/poisoned`` after a
  ///   failed sync; ``StoreError/Code/closed`` after ``close()``.
  @discardableResult
  public func append(_ payload: [UInt8], durable: Bool = false) throws(StoreError) -> UInt64 {
    try checkRecordSize(payload.count)
    let frameBytes = JournalFrame.recordSize(payloadCount: payload.count)
    return try payload.withStoreBytes { (bytes) throws(StoreError) in
      try append(records: 1, frameBytes: frameBytes, durable: durable) { frame, first in
        JournalFrame.storeRecord(sequence: first, payload: bytes, into: frame)
      }.lowerBound
    }
  }

  /// Appends one record of `count` bytes that `encode` writes in place, straight into the
  /// active segment (its mapping, or the journal's reused buffer for a positional write): no
  /// intermediate copy of the payload is made.
  ///
  /// `encode` runs while the journal's lock is held: it must fill exactly the `count` bytes it
  /// is given, return quickly, and not call back into the journal. Otherwise this behaves as
  /// ``append(_:durable:)``.
  ///
  /// ```swift
  /// let message = "disk almost full"
  /// try journal.append(count: message.utf8.count) { payload in
  ///   payload.copyBytes(from: message.utf8)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - count: The payload's size in bytes, at most ``JournalOptions/maxRecordSize``.
  ///   - durable: Return only once the record is durable, whatever the policy.
  ///   - encode: Writes the payload into the buffer it is given.
  /// - Returns: The record's sequence number.
  /// - Throws: As ``append(_:durable:)``.
  @discardableResult
  public func append(
    count: Int, durable: Bool = false, encodingWith encode: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError) -> UInt64 {
    guard count >= 0 else {
      throw StoreError(.invalidArgument, "record of \(count) bytes", path: directory)
    }
    try checkRecordSize(count)
    let frameBytes = JournalFrame.recordSize(payloadCount: count)
    return try append(records: 1, frameBytes: frameBytes, durable: durable) { frame, first in
      JournalFrame.storeRecord(sequence: first, payloadCount: count, into: frame, encode: encode)
    }.lowerBound
  }

  /// Appends one record of any collection of bytes (a `String`'s `utf8` view, a slice, `Data`),
  /// copied straight into the active segment. Otherwise as ``append(_:durable:)``.
  ///
  /// - Throws: As ``append(_:durable:)``.
  @discardableResult
  public func append(contentsOf payload: some Collection<UInt8>, durable: Bool = false)
    throws(StoreError) -> UInt64
  {
    try append(count: payload.count, durable: durable) { buffer in
      buffer.copyBytes(from: payload)
    }
  }

  /// Appends records as one write (and, where the policy syncs, one sync).
  ///
  /// Either every record of the batch is written or none is: a failed write is rolled back.
  /// After a crash of the machine, a batch that was not yet durable may be recovered in part
  /// (a prefix of it), never with a gap.
  ///
  /// - Parameters:
  ///   - payloads: The records, each at most ``JournalOptions/maxRecordSize``.
  ///   - durable: Return only once the batch is durable, whatever the policy.
  /// - Returns: The sequences given to the records, in order (empty for an empty batch).
  /// - Throws: As ``append(_:durable:)``.
  @discardableResult
  public func append(batch payloads: [[UInt8]], durable: Bool = false) throws(StoreError)
    -> Range<UInt64>
  {
    var frameBytes = 0
    for payload in payloads {
      try checkRecordSize(payload.count)
      frameBytes += JournalFrame.recordSize(payloadCount: payload.count)
    }
    return try append(records: payloads.count, frameBytes: frameBytes, durable: durable) {
      frames, first in
      var offset = 0
      for (index, payload) in payloads.enumerated() {
        let size = JournalFrame.recordSize(payloadCount: payload.count)
        payload.withUnsafeBytes { bytes in
          JournalFrame.storeRecord(
            sequence: first + UInt64(index), payload: bytes,
            into: UnsafeMutableRawBufferPointer(rebasing: frames[offset..<(offset + size)]))
        }
        offset += size
      }
    }
  }

  /// Refuses a payload larger than ``JournalOptions/maxRecordSize`` before anything is written.
  private func checkRecordSize(_ count: Int) throws(StoreError) {
    guard count <= options.maxRecordSize else {
      throw StoreError(
        .invalidArgument,
        "record of \(count) bytes exceeds maxRecordSize \(options.maxRecordSize)",
        path: directory)
    }
  }

  /// The common path of both appends: under the lock, encodes `records` frames (`frameBytes`
  /// in all) straight into the active segment's mapping, or into the core's reused buffer for
  /// one positional write; then waits for durability where the policy or `durable` asks for
  /// it. `encode` stores exactly `frameBytes` bytes into the buffer it is given, numbering the
  /// frames from the sequence given.
  private func append(
    records: Int, frameBytes: Int, durable: Bool,
    encode: (UnsafeMutableRawBufferPointer, UInt64) -> Void
  ) throws(StoreError) -> Range<UInt64> {
    let batch = JournalBatch(records: records, frameBytes: frameBytes, durable: durable)
    let flushInterval: Duration? =
      if case .interval(let interval) = options.syncPolicy { interval } else { nil }
    // An appender that must wait arrives at the group commit in the same critical section as
    // its write: a leader gathering appenders sees it as soon as its record is there. One that
    // does not claims the interval policy's timed sync there, unless one is scheduled.
    func write(_ core: inout JournalCore, exclusive: Bool) throws(StoreError) -> Written? {
      guard var written = try writeBatch(batch, core: &core, exclusive: exclusive, encode: encode)
      else { return nil }
      if written.waits, let last = written.sequences.last {
        written.arrival = arriveDurable(last, core: &core)
      } else if flushInterval != nil, !written.sequences.isEmpty {
        written.schedulesFlush = core.claimFlush()
      }
      return written
    }
    var outcome = try state.withLock { (core) throws(StoreError) in
      try write(&core, exclusive: false)
    }
    if outcome == nil {
      // The segment must roll and a sync is running on it: wait until it finished.
      outcome = try withExclusiveCore { (core) throws(StoreError) in
        try write(&core, exclusive: true)
      }
    }
    guard let written = outcome else {
      throw StoreError(
        .internalInconsistency, "journal append could not roll its segment", path: directory)
    }
    if written.sequences.isEmpty { return written.sequences }
    if written.rolled, options.backgroundMaintenance { scheduleSeal() }
    if let arrival = written.arrival {
      try follow(arrival)
    } else if written.schedulesFlush, let flushInterval {
      scheduleFlush(after: flushInterval)
    }
    return written.sequences
  }

  struct Written {
    var sequences: Range<UInt64>
    /// The appender must wait for durability.
    var waits: Bool
    /// The append replaced a full segment, whose seal is now pending.
    var rolled = false
    /// For an appender that waits: the group commit's decision when it arrived, in the
    /// critical section of its write. Trivially copyable, so the append that does not wait
    /// (the common case) moves no group-commit state around.
    var arrival: Arrival?
    /// For one that does not, under the interval policy: it claimed the timed sync
    /// (``JournalCore/claimFlush()``) and schedules it.
    var schedulesFlush = false
  }

  /// What one append writes: `records` frames of `frameBytes` in all.
  struct JournalBatch {
    var records: Int
    var frameBytes: Int
    var durable: Bool
  }

  /// Writes the frames under the lock; returns `nil` if the segment must roll but a sync is in
  /// flight or a seal is being made (the caller retries exclusively).
  /// `encode` stores the frames into the buffer it is given, numbered from the sequence given.
  func writeBatch(
    _ batch: JournalBatch, core: inout JournalCore, exclusive: Bool,
    encode: (UnsafeMutableRawBufferPointer, UInt64) -> Void
  ) throws(StoreError) -> Written? {
    try core.checkUsable(directory)
    let first = core.lastSequence + 1
    guard batch.records > 0 else { return Written(sequences: first..<first, waits: false) }
    // Frames and segment names stop at maximumSequence: a record beyond it could be written
    // but never read back.
    assert(core.lastSequence <= JournalFrame.maximumSequence, "sequence beyond the maximum")
    guard UInt64(batch.records) <= JournalFrame.maximumSequence - core.lastSequence else {
      throw StoreError(
        .sequenceLimitReached,
        "the journal's records reached sequence \(core.lastSequence); \(batch.records) more "
          + "would pass the last one a journal can hold (\(JournalFrame.maximumSequence))",
        path: directory)
    }
    guard let activeEnd = core.active?.end, let activeFirst = core.active?.first else {
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    var rolled = false
    if activeEnd > 0, activeEnd + UInt64(batch.frameBytes) > options.segmentSize,
      core.lastSequence >= activeFirst
    {
      // The active handle is being synced, or the previous segment is being sealed on
      // another thread: retry once the journal can be taken exclusively.
      if core.syncInFlight && !exclusive { return nil }
      if core.sealing?.claimed == true { return nil }
      try roll(core: &core)
      core.filledSegment = true
      rolled = true
    }
    try writeFrames(count: batch.frameBytes, core: &core) { frames in encode(frames, first) }
    let count = UInt64(batch.records)
    core.lastSequence += count
    core.unsyncedRecords += batch.records
    let mustSync: Bool
    switch options.syncPolicy {
    case .always: mustSync = true
    case .groupCommit: mustSync = true
    case .everyRecords(let n): mustSync = core.unsyncedRecords >= max(n, 1)
    case .interval, .never: mustSync = false
    }
    let waits = mustSync || batch.durable
    return Written(sequences: first..<(first + count), waits: waits, rolled: rolled)
  }

  /// Writes `frames` at the active end, as ``writeFrames(count:core:fill:)`` does.
  func writeFrames(_ frames: [UInt8], core: inout JournalCore) throws(StoreError) {
    try writeFrames(count: frames.count, core: &core) { target in
      frames.withUnsafeBytes { target.copyMemory(from: $0) }
    }
  }

  /// Writes `count` bytes at the active end, which `fill` stores: straight into the segment's
  /// mapping when appends are mapped (growing it first if needed), else into the core's reused
  /// buffer for one positional write, rolled back to the old end on failure (truncate, then
  /// sync; poisoning the journal if even the rollback fails). Updates the core in place.
  func writeFrames(
    count: Int, core: inout JournalCore, fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError) {
    guard let end = core.active?.end else {
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    let newEnd = end + UInt64(count)
    if let mapping = mapping(covering: newEnd, core: &core) {
      // A mapped write stores every byte or none (it only refuses a range outside the
      // mapping), so there is nothing to roll back.
      writeZeros(through: newEnd, within: mapping.length, core: &core)
      try mapping.write(count: count, at: end, fill)
      core.active?.end = newEnd
      core.countAppended(count)
      return
    }
    guard let handle = core.active?.handle else {
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    if core.scratch.count < count { core.scratch = [UInt8](repeating: 0, count: count) }
    core.scratch.withUnsafeMutableBytes {
      fill(UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]))
    }
    let frames = count == core.scratch.count ? core.scratch : Array(core.scratch[0..<count])
    if core.scratch.count > JournalCore.scratchLimit { core.scratch = [] }
    do {
      try fileSystem.write(handle, frames, at: end)
    } catch {
      // The rollback is made durable at once: otherwise a crash could keep the partial write
      // without the truncate, and a failed record would reappear. A mapping must not outlive
      // the cut (a write beyond the end of a mapped file is fatal), so it is closed first.
      do {
        try releaseMapping(core: &core)
        try fileSystem.truncate(handle, to: end)
        try fileSystem.sync(handle)
      } catch let rollback {
        core.poison = StoreError(
          .poisoned,
          "journal write failed and could not be rolled back; reopen the journal",
          path: core.active?.path ?? directory, cause: rollback)
      }
      throw error
    }
    core.active?.end = newEnd
    core.countAppended(count)
  }

  /// The active segment's mapping, grown (4 KiB, doubling, up to the segment size or the
  /// frame that needs more; the whole segment at once once a segment was filled) so that it
  /// covers `[0, end)`; `nil` when appends are not mapped.
  /// A mapping that cannot be made turns mapped appends off for good (event
  /// ``StoreEvents/journalMappingUnavailable``); the caller then writes positionally.
  func mapping(covering end: UInt64, core: inout JournalCore) -> (any FileMapping)? {
    guard core.mappingEnabled else { return nil }
    // The common case reads two fields, without a copy of the whole segment description.
    if let mapping = core.active?.mapping, mapping.length >= end { return mapping }
    guard let active = core.active else { return nil }
    let current = active.mapping?.length ?? 0
    let first = core.filledSegment ? options.segmentSize : Self.firstMappingLength
    var length = max(current * 2, first)
    length = min(length, max(options.segmentSize, end))
    length = max(length, end)
    do throws(StoreError) {
      try releaseMapping(core: &core)
      let mapping = try fileSystem.map(active.handle, length: length)
      core.active?.mapping = mapping
      return mapping
    } catch {
      core.mappingEnabled = false
      events.emit(
        StoreEvents.journalMappingUnavailable,
        [("path", active.path), ("error", String(describing: error))])
      return nil
    }
  }

  /// Before frames are stored up to `target`, writes zeros (positionally) into the mapped
  /// tail, in chunks of ``JournalOptions/zeroAheadBytes``, up to at least one chunk past
  /// `target` and at most to the mapped `length`, while the appends come fast enough for it
  /// to pay (``JournalZerosAhead``). The frames then find their pages in the page
  /// cache as folios of a chunk each, and one page fault maps a whole chunk; a page of the
  /// preallocated tail that nothing wrote costs a fault of its own (BENCHMARKS.md, "What
  /// changed in the journal for these figures", has the cost per page and per record).
  ///
  /// Only chunks that start at or after the active end are written, so no frame is ever
  /// overwritten: the tail is zeros before and after, and a crash that keeps any part of
  /// these writes leaves zeros, which open takes as the end. The zeros may be written back
  /// with the next sync (at most two chunks past the end). Best effort: a failed write costs
  /// only the faults.
  func writeZeros(through target: UInt64, within length: UInt64, core: inout JournalCore) {
    let chunk = UInt64(options.zeroAheadBytes)
    // The common case, on every append: the chunk past `target` is zeroed already.
    guard chunk > 0, let zeroedEnd = core.active?.zeroedEnd, zeroedEnd < target + chunk,
      let end = core.active?.end, let handle = core.active?.handle
    else { return }
    // Off while the appends come too slowly for zeros ahead to pay (`JournalZerosAhead`):
    // looked at again once a chunk more is appended, so a burst turns them on within a chunk.
    if !core.zerosAhead {
      guard target >= core.active?.zeroCheckAt ?? 0 else { return }
      core.active?.zeroCheckAt = target + chunk
      guard
        core.appendsPayForZeros(
          now: DispatchTime.now().uptimeNanoseconds, minimumRate: options.zeroAheadMinimumRate)
          == true
      else { return }
      core.zerosAhead = true
    }
    let boundary =
      options.mutations.contains(.zerosOverTheEnd)
      ? end / chunk * chunk : (end + chunk - 1) / chunk * chunk
    var zeroed = max(zeroedEnd, boundary)
    while zeroed < target + chunk, zeroed + chunk <= length {
      let start = zeroed
      do throws(StoreError) {
        try Self.zeros.withStoreBytes { (bytes) throws(StoreError) in
          var offset = 0
          while offset < Int(chunk) {
            let count = min(bytes.count, Int(chunk) - offset)
            try fileSystem.write(
              handle, UnsafeRawBufferPointer(rebasing: bytes[0..<count]),
              at: start + UInt64(offset))
            offset += count
          }
        }
      } catch {
        break
      }
      zeroed += chunk
    }
    core.active?.zeroedEnd = zeroed
  }

  /// The zeros ``writeZeros(through:within:core:)`` writes from: a whole default chunk, so that
  /// a chunk is one write (the page cache keeps what one write brought in as one folio, and one
  /// fault maps a folio whole; a chunk written in 16 KiB pieces costs a fault per piece).
  static let zeros = [UInt8](repeating: 0, count: 256 << 10)

  /// The first length an active segment is mapped (and preallocated) with: one page, 4 KiB.
  /// Doubling from there reaches an 8 MiB segment in 11 steps, and a journal that holds a few
  /// records keeps a few KiB of zeros at most.
  static let firstMappingLength: UInt64 = 4 << 10

  /// Closes the active segment's mapping, if any. The file keeps its preallocated zero tail
  /// until the segment is completed (``completeSegment(_:lastSequence:markedSequence:)``).
  func releaseMapping(core: inout JournalCore) throws(StoreError) {
    guard let mapping = core.active?.mapping else { return }
    core.active?.mapping = nil
    try mapping.close()
  }

  /// Makes every record appended so far durable.
  ///
  /// - Throws: ``StoreError/Code/poisoned`` if this or an earlier sync failed (the journal
  ///   must be reopened); ``StoreError/Code/closed`` after ``close()``.
  public func sync() throws(StoreError) {
    let target = try state.withLock { (core) throws(StoreError) -> UInt64 in
      try core.checkUsable(directory)
      return core.lastSequence
    }
    try awaitDurable(target)
  }

  /// Runs `body` under the lock once no sync is in flight and no seal is being made on another
  /// thread (so it may replace or close the active handle, and finish a pending seal itself).
  func withExclusiveCore<Result>(
    _ body: (inout JournalCore) throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    while true {
      let waiter = state.withLock { core -> DispatchSemaphore? in
        guard core.syncInFlight || core.sealing?.claimed == true else { return nil }
        let semaphore = DispatchSemaphore(value: 0)
        core.exclusiveWaiters.append(semaphore)
        return semaphore
      }
      if let waiter {
        waiter.wait()
        continue
      }
      let outcome = state.withLock { core -> Swift.Result<Result?, StoreError> in
        guard !core.syncInFlight, core.sealing?.claimed != true else { return .success(nil) }
        do throws(StoreError) {
          return .success(try body(&core))
        } catch {
          return .failure(error)
        }
      }
      if let value = try outcome.get() { return value }
    }
  }
}
