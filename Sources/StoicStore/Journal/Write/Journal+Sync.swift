import Dispatch

extension Journal {
  private enum SyncStep {
    case done
    case fail(StoreError)
    case wait(DispatchSemaphore)
    case lead(wake: DispatchSemaphore?, delay: Duration)
  }

  /// Returns once every record up to `sequence` is durable: either a sync already covered it,
  /// or this thread joins the sync in flight (and the next one), or it leads a sync for
  /// everyone waiting (group commit).
  ///
  /// `registered` says the caller counted itself in ``JournalCore/pendingDurable`` when it
  /// wrote (``writeBatch(_:core:exclusive:encode:)``); it is counted out here, and a
  /// group-commit leader that was gathering appenders is woken once none is left on its way.
  func awaitDurable(_ sequence: UInt64, registered: Bool = false) throws(StoreError) {
    var registered = registered
    while true {
      let step = state.withLock { core -> SyncStep in
        if registered {
          registered = false
          core.pendingDurable -= 1
          core.wakeLeaderIfGathered()
        }
        if core.durableSequence >= sequence { return .done }
        if let poison = core.poison { return .fail(poison) }
        if core.closed {
          return .fail(StoreError(.closed, "the journal is closed", path: directory))
        }
        if core.syncInFlight {
          let semaphore = DispatchSemaphore(value: 0)
          core.waiters.append((sequence, semaphore))
          core.wakeLeaderIfGathered()
          return .wait(semaphore)
        }
        core.syncInFlight = true
        guard case .groupCommit(let delay, let maxRecords) = options.syncPolicy,
          delay > .zero, core.unsyncedRecords < maxRecords
        else { return .lead(wake: nil, delay: .zero) }
        // Gather while the appenders the last sync released may be coming back with their
        // next records (up to that sync's duration: a group that shrank costs one such wait),
        // or else while another appender is between its write and its wait (up to the delay).
        // A lone appender never waits.
        let gather: Duration
        if core.lastGroup > 1 {
          gather = min(delay, core.lastSyncDuration)
        } else if core.pendingDurable > 0 {
          gather = delay
        } else {
          return .lead(wake: nil, delay: .zero)
        }
        let wake = DispatchSemaphore(value: 0)
        core.leaderWake = wake
        return .lead(wake: wake, delay: gather)
      }
      switch step {
      case .done: return
      case .fail(let error): throw error
      case .wait(let semaphore): semaphore.wait()
      case .lead(let wake, let delay): try leadSync(wake: wake, delay: delay)
      }
    }
  }

  /// Syncs the active segment outside the lock for everyone waiting, then records what is
  /// durable, appends a sync marker claiming it, and wakes the waiters.
  private func leadSync(wake: DispatchSemaphore?, delay: Duration) throws(StoreError) {
    if let wake { _ = wake.wait(timeout: delay.fromNow) }
    // The leader goes on syncing, up to `maximumRounds` times, while appenders are waiting for
    // records its last sync did not cover: they need not wake up and elect a new leader first.
    var round = 1
    // A leader that gathers hands over instead: a waiter leads the next sync and gathers the
    // next records of this one's appenders, the leader's own included.
    var rounds = Self.maximumRounds
    if case .groupCommit(let delay, _) = options.syncPolicy, delay > .zero { rounds = 1 }
    while true {
      // The previous segment's seal comes first: a record of the active segment must never
      // be durable while an earlier one may still be lost.
      do {
        if !options.mutations.contains(.syncBeforeSeal) { try finishPendingSeal() }
      } catch {
        state.withLock { core in
          core.syncInFlight = false
          core.wakeAll()
        }
        throw error
      }
      let target = state.withLock { core -> (StoreFileHandle, UInt64, UInt64)? in
        core.leaderWake = nil
        guard let active = core.active else { return nil }
        // No append writes below the end again, so the whole pages there are given back
        // before the sync: the sync need not write-protect them (one interrupt of every other
        // processor running this process, per page). A failed release costs only that.
        try? active.mapping?.release(below: active.end)
        return (active.handle, active.end, core.lastSequence)
      }
      guard let (handle, end, sequence) = target else {
        state.withLock { core in
          core.syncInFlight = false
          core.wakeAll()
        }
        throw StoreError(.closed, "the journal has no active segment", path: directory)
      }
      let started = ContinuousClock.now
      do {
        try fileSystem.sync(handle)
      } catch {
        state.withLock { core in
          core.poison = poisonError(after: error)
          core.syncInFlight = false
          core.wakeAll()
        }
        throw error
      }
      let again = state.withLock { core -> Bool in
        core.durableSequence = max(core.durableSequence, sequence)
        core.unsyncedRecords = Int(clamping: core.lastSequence - min(sequence, core.lastSequence))
        if let syncedEnd = core.active?.syncedEnd { core.active?.syncedEnd = max(syncedEnd, end) }
        core.lastSyncDuration = ContinuousClock.now - started
        writeMarker(core: &core, durableSequence: sequence, durableEnd: end)
        let (woken, othersWaiting) = core.wakeCovered()
        // The appenders around this sync: those it released (the leader only in its first
        // round) and those still waiting.
        let waiting = core.waiters.count { $0.sequence != UInt64.max }
        core.lastGroup = max(1, woken + waiting + (round == 1 ? 1 : 0))
        if othersWaiting, round < rounds, core.poison == nil, !core.closed,
          core.lastSequence > core.durableSequence
        {
          return true
        }
        core.syncInFlight = false
        core.wakeAll()
        return false
      }
      guard again else { return }
      round += 1
    }
  }

  /// The most syncs one group-commit leader runs back to back for other waiting appenders.
  static let maximumRounds = 4

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

  /// Schedules a background sync after `interval` unless one is scheduled.
  func scheduleFlush(after interval: Duration) {
    let schedule = state.withLock { core -> Bool in
      guard !core.flushScheduled, !core.closed else { return false }
      core.flushScheduled = true
      return true
    }
    guard schedule else { return }
    DispatchQueue.global().asyncAfter(deadline: interval.fromNow) { [weak self] in
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
