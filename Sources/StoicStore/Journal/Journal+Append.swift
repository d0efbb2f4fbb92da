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
  /// - Throws: ``StoreError/Code/invalidArgument`` for a payload that is too large; the write's
  ///   error (``StoreError/Code/diskFull``, ``StoreError/Code/io`` …) after rolling the file
  ///   back to its last good end; ``StoreError/Code/poisoned`` after a failed sync;
  ///   ``StoreError/Code/closed`` after ``close()``.
  @discardableResult
  public func append(_ payload: [UInt8], durable: Bool = false) throws(StoreError) -> UInt64 {
    try append(batch: [payload], durable: durable).lowerBound
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
    for payload in payloads where payload.count > options.maxRecordSize {
      throw StoreError(
        .invalidArgument,
        "record of \(payload.count) bytes exceeds maxRecordSize \(options.maxRecordSize)",
        path: directory)
    }
    var written = try state.withLock { (core) throws(StoreError) in
      try writeBatch(payloads, core: &core, exclusive: false)
    }
    if written == nil {
      // The segment must roll and a sync is running on it: wait until it finished.
      written = try withExclusiveCore { (core) throws(StoreError) in
        try writeBatch(payloads, core: &core, exclusive: true)
      }
    }
    guard let written else {
      throw StoreError(.other, "journal append could not roll its segment", path: directory)
    }
    if written.sequences.isEmpty { return written.sequences }
    if durable || written.mustSync {
      try awaitDurable(written.sequences.upperBound - 1)
    } else if case .interval(let interval) = options.syncPolicy {
      scheduleFlush(after: interval)
    }
    return written.sequences
  }

  struct Written {
    var sequences: Range<UInt64>
    var mustSync: Bool
  }

  /// Writes the frames under the lock; returns `nil` if the segment must roll but a sync is in
  /// flight (the caller retries exclusively).
  func writeBatch(_ payloads: [[UInt8]], core: inout JournalCore, exclusive: Bool)
    throws(StoreError) -> Written?
  {
    try core.checkUsable(directory)
    let first = core.lastSequence + 1
    guard !payloads.isEmpty else { return Written(sequences: first..<first, mustSync: false) }
    var frames: [UInt8] = []
    frames.reserveCapacity(
      payloads.reduce(0) { $0 + JournalFrame.recordSize(payloadCount: $1.count) })
    for (index, payload) in payloads.enumerated() {
      JournalFrame.appendRecord(sequence: first + UInt64(index), payload: payload, to: &frames)
    }
    guard var active = core.active else {
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    if active.end > 0, active.end + UInt64(frames.count) > options.segmentSize,
      core.lastSequence >= active.first
    {
      if core.syncInFlight && !exclusive { return nil }
      try roll(core: &core, compress: options.compressSealedSegments)
      guard let rolled = core.active else {
        throw StoreError(.closed, "the journal has no active segment", path: directory)
      }
      active = rolled
    }
    try writeFrames(frames, core: &core)
    let count = UInt64(payloads.count)
    core.lastSequence += count
    core.unsyncedRecords += payloads.count
    let mustSync: Bool
    switch options.syncPolicy {
    case .always: mustSync = true
    case .groupCommit(_, let maxRecords):
      mustSync = true
      if core.unsyncedRecords >= maxRecords { core.leaderWake?.signal() }
    case .everyRecords(let n): mustSync = core.unsyncedRecords >= max(n, 1)
    case .interval, .never: mustSync = false
    }
    return Written(sequences: first..<(first + count), mustSync: mustSync)
  }

  /// Writes `frames` at the active end, rolling back to it on failure (truncate, then sync;
  /// poisoning the journal if even the rollback fails).
  func writeFrames(_ frames: [UInt8], core: inout JournalCore) throws(StoreError) {
    guard var active = core.active else {
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    do {
      try fileSystem.write(active.handle, frames, at: active.end)
    } catch {
      // The rollback is made durable at once: otherwise a crash could keep the partial write
      // without the truncate, and a failed record would reappear.
      do {
        try fileSystem.truncate(active.handle, to: active.end)
        try fileSystem.sync(active.handle)
      } catch let rollback {
        core.poison = StoreError(
          .poisoned,
          "journal write failed and could not be rolled back; reopen the journal",
          path: active.path, cause: rollback)
      }
      throw error
    }
    active.end += UInt64(frames.count)
    core.active = active
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

  /// Runs `body` under the lock once no sync is in flight (so it may replace or close the
  /// active handle).
  func withExclusiveCore<Result>(
    _ body: (inout JournalCore) throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    while true {
      let waiter = state.withLock { core -> DispatchSemaphore? in
        guard core.syncInFlight else { return nil }
        let semaphore = DispatchSemaphore(value: 0)
        core.waiters.append(semaphore)
        return semaphore
      }
      if let waiter {
        waiter.wait()
        continue
      }
      let outcome = state.withLock { core -> Swift.Result<Result?, StoreError> in
        guard !core.syncInFlight else { return .success(nil) }
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
