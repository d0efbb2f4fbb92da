import Dispatch

extension Journal {
  /// What a durable appender does next: the group commit's ``Arrival`` with what the journal
  /// holds for it (a semaphore, an error), looked up under the lock.
  enum DurableStep {
    case done
    case fail(StoreError)
    case wait(ticket: UInt64, DispatchSemaphore)
    /// Lead the next sync, after gathering up to `gather` (woken early through `wake`).
    case lead(gather: Duration, wake: DispatchSemaphore?)
  }

  /// The group commit's decision for one appender, as ``JournalGroupCommit`` makes it: a few
  /// bytes with nothing to retain, so an append can carry it out of its critical section at
  /// no cost (the common append, which does not wait, carries `nil`).
  typealias Arrival = JournalGroupCommit<DispatchSemaphore>.Step

  /// Under the lock: the appender of `sequence` arrives at the group commit. A leader that will
  /// gather gets its wake-up semaphore here, in the same critical section, so an appender
  /// arriving next can end the gathering.
  func arriveDurable(_ sequence: UInt64, core: inout JournalCore) -> Arrival {
    let (arrival, wakeLeader) = core.groupCommit.arrive(
      sequence, unsynced: core.unsyncedRecords, waiter: { DispatchSemaphore(value: 0) })
    if wakeLeader {
      core.leaderWake?.signal()
      core.leaderWake = nil
    }
    began(arrival, core: &core)
    return arrival
  }

  /// Under the lock, as the group commit hands out `step`: a leader that gathers gets the
  /// semaphore through which the appender that completes its group wakes it.
  private func began(_ step: Arrival, core: inout JournalCore) {
    if case .lead(let gather) = step, gather > .zero {
      core.leaderWake = DispatchSemaphore(value: 0)
    }
  }

  /// Under the lock: the group commit's step in the journal's terms (a semaphore to wait on,
  /// an error). A waiter whose entry is gone was covered by a sync in the meantime.
  private func durableStep(_ step: Arrival, core: inout JournalCore) -> DurableStep {
    switch step {
    case .durable:
      return .done
    case .failed:
      return .fail(
        core.poison ?? StoreError(.closed, "the journal is closed", path: directory))
    case .wait(let ticket):
      guard let entry = core.groupCommit.entries.last(where: { $0.ticket == ticket }) else {
        return .done
      }
      return .wait(ticket: ticket, entry.waiter)
    case .lead(let gather):
      // A gathering leader's semaphore is gone only if the group was completed meanwhile:
      // it syncs at once.
      return .lead(gather: gather, wake: gather > .zero ? core.leaderWake : nil)
    }
  }

  /// Returns once every record up to `sequence` is durable: a sync already covered it, or
  /// this thread waits for the sync that covers it, or leads one for everyone waiting (group
  /// commit, ``JournalGroupCommit``).
  func awaitDurable(_ sequence: UInt64) throws(StoreError) {
    try follow(
      state.withLock { core in durableStep(arriveDurable(sequence, core: &core), core: &core) })
  }

  /// Carries out an appender's `arrival`, decided in the critical section of its write, until
  /// its record is durable. Only a step that needs the journal's state (a semaphore, an error)
  /// takes the lock again.
  func follow(_ arrival: Arrival) throws(StoreError) {
    switch arrival {
    case .durable:
      return
    case .lead(let gather) where gather == .zero:
      try leadSync(gather: .zero, wake: nil)
    default:
      try follow(state.withLock { core in durableStep(arrival, core: &core) })
    }
  }

  /// Carries out `step` and the steps after it until the record is durable.
  func follow(_ step: DurableStep) throws(StoreError) {
    var step = step
    while true {
      switch step {
      case .done:
        return
      case .fail(let error):
        throw error
      case .wait(let ticket, let semaphore):
        semaphore.wait()
        step = state.withLock { core in
          let usable = core.poison == nil && !core.closed
          let next = core.groupCommit.resume(ticket, usable: usable)
          began(next, core: &core)
          return durableStep(next, core: &core)
        }
      case .lead(let gather, let wake):
        // The leader syncs through the last appended record, its own included.
        try leadSync(gather: gather, wake: wake)
        return
      }
    }
  }

  /// Gathers (up to `gather`, or until woken through `wake`), then syncs the active segment
  /// outside the lock for everyone waiting, records what is durable, appends a sync marker
  /// claiming it, wakes the appenders it covered and hands over to one still waiting.
  private func leadSync(gather: Duration, wake: DispatchSemaphore?) throws(StoreError) {
    if let wake {
      _ = wake.wait(timeout: gather.fromNow)
      state.withLock { core in
        core.groupCommit.gathered()
        core.leaderWake = nil
      }
    }
    // The previous segment's seal comes first: a record of the active segment must never
    // be durable while an earlier one may still be lost.
    do {
      if !options.mutations.contains(.syncBeforeSeal) { try finishPendingSeal() }
    } catch {
      state.withLock { core in leaderFailed(core: &core) }
      throw error
    }
    let target = state.withLock { core -> (StoreFileHandle, UInt64, UInt64)? in
      guard let active = core.active else { return nil }
      // No append writes below the end again, so the whole pages there are given back
      // before the sync: the sync need not write-protect them (one interrupt of every other
      // processor running this process, per page). A failed release costs only that.
      try? active.mapping?.release(below: active.end)
      return (active.handle, active.end, core.lastSequence)
    }
    guard let (handle, end, sequence) = target else {
      state.withLock { core in leaderFailed(core: &core) }
      throw StoreError(.closed, "the journal has no active segment", path: directory)
    }
    let started = ContinuousClock.now
    do {
      try fileSystem.sync(handle)
    } catch {
      state.withLock { core in
        core.poison = poisonError(after: error)
        leaderFailed(core: &core)
      }
      throw error
    }
    let woken = state.withLock { core in
      core.unsyncedRecords = Int(clamping: core.lastSequence - min(sequence, core.lastSequence))
      if let syncedEnd = core.active?.syncedEnd { core.active?.syncedEnd = max(syncedEnd, end) }
      let now = DispatchTime.now().uptimeNanoseconds
      if let pays = core.appendsPayForZeros(now: now, minimumRate: options.zeroAheadMinimumRate) {
        core.zerosAhead = pays
        if !pays, let activeEnd = core.active?.end {
          core.active?.zeroCheckAt = activeEnd + UInt64(options.zeroAheadBytes)
        }
      }
      core.lastSyncEnded = now
      core.appendedAtLastSync = core.appendedBytes
      let woken = core.groupCommit.synced(
        through: sequence, duration: ContinuousClock.now - started)
      writeMarker(core: &core, durableSequence: sequence, durableEnd: end)
      defer { core.exclusiveWaiters = [] }
      return woken + core.exclusiveWaiters
    }
    // Signalled after the lock is released: each woken thread takes it at once.
    for semaphore in woken { semaphore.signal() }
  }

  /// The leader stops without a sync: every waiter wakes and fails (or finds its record
  /// durable), and so does whoever waits to take the journal exclusively.
  private func leaderFailed(core: inout JournalCore) {
    core.leaderWake = nil
    for semaphore in core.groupCommit.leaderFailed() + core.exclusiveWaiters {
      semaphore.signal()
    }
    core.exclusiveWaiters = []
  }

  func poisonError(after error: StoreError) -> StoreError {
    StoreError(
      .poisoned,
      "a sync of the journal failed (\(error.code)); unsynced records may be lost, reopen it",
      path: directory, syscall: error.syscall, errno: error.errno, cause: error)
  }

  /// Appends a sync marker claiming `[0, durableEnd)` of the active segment, if it claims more
  /// than the last one. Best effort: a failed marker write is rolled back and costs only the
  /// ability to tell later damage from a torn tail.
  func writeMarker(core: inout JournalCore, durableSequence: UInt64, durableEnd: UInt64) {
    guard durableSequence > core.markedSequence, let active = core.active,
      durableSequence >= active.first
    else { return }
    let marker = JournalFrame.marker(
      durableSequence: durableSequence, durableEnd: durableEnd, segmentFirst: active.first,
      position: active.end)
    do throws(StoreError) {
      try writeFrames(marker, core: &core)
      core.markedSequence = durableSequence
    } catch {
      // writeFrames rolled back (or poisoned the journal); nothing else to do.
    }
  }

  /// Replaces the active segment by a new one and leaves the replaced one's seal pending
  /// (``JournalCore/sealing``): the background, the next sync, the next roll, dropping data or
  /// closing makes it, whichever comes first, and the seal also makes the new segment's name
  /// durable. A seal still pending from the previous roll is finished first. Call only with no
  /// sync in flight and no seal claimed by another thread.
  func roll(core: inout JournalCore) throws(StoreError) {
    try sealPendingLocked(core: &core)
    guard let active = core.active else { return }
    let next = core.lastSequence + 1
    assert(next > active.first && next <= JournalFrame.maximumSequence, "roll to segment \(next)")
    let name = JournalFileNames.segment(first: next, kind: .log)
    let path = StorePath.join(directory, name)
    let handle = try fileSystem.open(path, .createOrOpen)
    do throws(StoreError) {
      try fileSystem.truncate(handle, to: 0)
    } catch {
      try? fileSystem.close(handle)
      throw error
    }
    core.sealing = JournalCore.Sealing(
      segment: active, lastSequence: core.lastSequence, markedSequence: core.markedSequence)
    core.active = JournalCore.Active(
      first: next, name: name, path: path, handle: handle, end: 0, syncedEnd: 0)
    core.markedSequence = core.lastSequence
    core.unsyncedRecords = 0
  }

  /// Schedules the sync an append claimed (``JournalCore/claimFlush()``, in the critical
  /// section of its write) on the journal's ``background`` queue, after `interval`.
  func scheduleFlush(after interval: Duration) {
    background.push(after: interval) { [weak self] in
      guard let self else { return }
      self.state.withLock { $0.flushScheduled = false }
      try? self.sync()
    }
  }

  /// Makes everything durable (and covered by a final sync marker) and closes the journal.
  ///
  /// Closing twice does nothing. After a poisoning the files are closed and the poisoning is
  /// thrown, so a caller relying on close for durability learns that it did not happen.
  /// - Throws: ``StoreError/Code/poisoned``, or the sync's error.
  public func close() throws(StoreError) {
    // Waits for a segment being compressed in the background; later runs see `closed` and
    // stop, leaving sealed `.log` segments for the next open to compress.
    try withMaintenancePaused { () throws(StoreError) in try closePaused() }
  }

  private func closePaused() throws(StoreError) {
    try withExclusiveCore { (core) throws(StoreError) in
      guard !core.closed else { return }
      var failure: StoreError? = core.poison
      if failure == nil {
        do throws(StoreError) {
          try sealPendingLocked(core: &core)
          if let active = core.active {
            try completeSegment(
              active, lastSequence: core.lastSequence, markedSequence: core.markedSequence)
            core.durableSequence = core.lastSequence
          }
        } catch {
          failure = error
        }
      }
      core.closed = true
      try? core.active?.mapping?.close()
      try? core.sealing?.segment.mapping?.close()
      let handles = [core.sealing?.segment.handle, core.active?.handle, core.lockHandle]
      for handle in handles.compactMap({ $0 }) { try? fileSystem.close(handle) }
      core.sealing = nil
      core.active = nil
      core.lockHandle = nil
      core.wakeAll()
      if let failure { throw failure }
    }
  }
}
