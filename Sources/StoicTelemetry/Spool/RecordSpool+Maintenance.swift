import Dispatch
import StoicStore
import Synchronization

extension RecordSpool {
  /// Asks for a run of maintenance (recovery, retention, drop events, the spool's own events):
  /// on the spool's maintenance thread (``maintenanceExecutor``), or, with
  /// ``LogSpoolOptions/backgroundMaintenance`` off, by the next append once it returned. Cheap, never blocks, never runs maintenance itself: it may
  /// be called while the journal's lock is held (an event the journal raises).
  func requestMaintenance() {
    guard !maintenanceRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // While the spool opens, the request waits: open asks again once the journal is in place.
    guard let executor = maintenanceExecutor else { return }
    Task.detached(priority: .utility) { [weak self] in
      guard let self else { return }
      await executor.run { [weak self] in self?.runMaintenance() }
    }
  }

  /// Runs the maintenance asked for, on the calling thread, unless this thread is running it
  /// already (a record written by maintenance that asks for more).
  func runRequestedMaintenanceInline() {
    guard maintenanceRequested.load(ordering: .relaxed), !Self.maintaining.isSet else { return }
    runMaintenance()
  }

  /// One run of maintenance, serialized with every other; `force` also reports drops before
  /// their interval and measures the journal whatever its estimate (flush, close).
  func runMaintenance(force: Bool = false) {
    guard ready.load(ordering: .acquiring), !Self.maintaining.isSet else { return }
    maintenanceLock.wait()
    defer { maintenanceLock.signal() }
    Self.maintaining.whileSet {
      var rounds = 0
      repeat {
        maintenanceRequested.store(false, ordering: .relaxed)
        if closed.load(ordering: .relaxed) { return }
        // Forced once: a drop event that could not be written is reported at the next due
        // time, not in a loop here.
        maintain(force: force && rounds == 0)
        rounds += 1
      } while maintenanceRequested.load(ordering: .relaxed) && rounds < 4
    }
  }

  /// Recovery, retention, drop events, then the spool's own events.
  private func maintain(force: Bool) {
    releaseRetiredJournals()
    recoverIfDue()
    let ageDue = ageCheckDue()
    if force || ageDue || estimatedBytes >= options.highWater {
      // A failure (a disk error while dropping) leaves everything as it was; the next run
      // tries again.
      try? enforceRetentionLocked(checkAge: ageDue || force)
    }
    reportDrops(force: force)
    writePendingEvents()
  }

  /// Runs maintenance on the maintenance thread after `delay`, unless a run is scheduled already
  /// (only in background mode; inline, the next append, flush or close catches up).
  func scheduleTimer(after delay: Duration) {
    guard maintenanceExecutor != nil else { return }
    let schedule = state.withLock { state -> Bool in
      guard !state.timerScheduled else { return false }
      state.timerScheduled = true
      return true
    }
    guard schedule else { return }
    // The wait holds no thread: the task sleeps, then only asks for a run (on the executor).
    Task.detached(priority: .utility) { [weak self] in
      try? await Task.sleep(for: max(delay, .zero))
      guard let self else { return }
      self.state.withLock { $0.timerScheduled = false }
      self.requestMaintenance()
    }
  }

  // MARK: - Recovery

  /// After a disk error, once ``LogSpoolOptions/recoveryInterval`` has passed (and, after a
  /// full disk, once the file system has ``LogSpoolOptions/resumeFreeSpace``): closes the
  /// journal (it may be poisoned, or writing positionally after its mapping failed), opens it
  /// again, and takes records again.
  private func recoverIfDue() {
    guard !writable.load(ordering: .relaxed) else { return }
    let now = ContinuousClock.now
    let (due, failure) = state.withLock { state in
      (state.nextRecovery <= now, state.failure)
    }
    guard due else {
      scheduleTimer(after: state.withLock { $0.nextRecovery } - now)
      return
    }
    state.withLock { $0.nextRecovery = now + options.recoveryInterval }
    let spaceCodes: [StoreError.Code] = [.diskFull, .quotaExceeded]
    if let failure, spaceCodes.contains(failure.code) {
      let free = (try? fileSystem.freeSpace(directory)) ?? 0
      guard free >= options.resumeFreeSpace else {
        scheduleTimer(after: options.recoveryInterval)
        return
      }
    }
    let old = currentJournal()
    // Nobody appends meanwhile: the spool is not writable.
    try? old?.close()
    let journal: Journal
    do throws(StoreError) {
      journal = try Journal.open(
        directory: directory, fileSystem: fileSystem, options: options.journalOptions,
        events: eventSink)
      try measure(journal)
    } catch {
      state.withLock { $0.failure = error }
      scheduleTimer(after: options.recoveryInterval)
      return
    }
    let diskErrors = dropCounters.counts.diskError
    replaceJournal(with: journal)
    let dropped = state.withLock { state -> UInt64 in
      state.failure = nil
      return diskErrors - min(diskErrors, state.diskErrorsAtFailure)
    }
    writable.store(true, ordering: .relaxed)
    assert(
      state.withLock {
        SpoolRules.takesRecordsWithoutFailure(
          writable: writable.load(ordering: .relaxed), failure: $0.failure)
      }, "@L1: the spool takes records again with a failure recorded")
    raise(
      StoreEvent(
        SpoolEvents.writeResumed,
        [("path", directory), ("dropped", String(dropped)), ("reopened", "true")]))
  }

  // MARK: - Drop events

  /// Raises ``SpoolEvents/recordsDropped`` for each reason whose count grew since the last
  /// report, at most once per ``LogSpoolOptions/dropEventInterval`` (unless forced), with the
  /// count since then and the total; schedules a later look for what comes meanwhile.
  private func reportDrops(force: Bool) {
    let counts = dropCounters.counts
    let now = ContinuousClock.now
    var wait: Duration?
    let events = state.withLock { state -> [StoreEvent] in
      guard counts != state.reportedDrops else { return [] }
      if !force, let last = state.lastDropReport, now - last < options.dropEventInterval {
        wait = options.dropEventInterval - (now - last)
        return []
      }
      var events: [StoreEvent] = []
      for reason in SpoolDropReason.allCases where counts[reason] > state.reportedDrops[reason] {
        events.append(
          StoreEvent(
            SpoolEvents.recordsDropped,
            [
              ("reason", reason.description),
              ("count", String(counts[reason] - state.reportedDrops[reason])),
              ("total", String(counts[reason])),
            ]))
      }
      state.reportedDrops = counts
      state.lastDropReport = now
      wait = options.dropEventInterval
      return events
    }
    for event in events { raise(event) }
    if let wait { scheduleTimer(after: wait) }
  }

  // MARK: - The spool's own events

  /// Passes an event on to the app's sink at once and queues it to be written into the spool.
  /// An event raised while one is being written (on this thread) is passed on and counted, not
  /// written; so is one beyond ``eventQueueLimit`` waiting. May be called under the journal's
  /// lock: it only queues.
  func raise(_ event: StoreEvent) {
    appEvents.emit(event)
    if Self.writingEvent.isSet {
      state.withLock { $0.suppressedEvents += 1 }
      return
    }
    let queued = state.withLock { state -> Bool in
      guard state.pendingEvents.count < Self.eventQueueLimit else {
        state.suppressedEvents += 1
        return false
      }
      state.pendingEvents.append(event)
      return true
    }
    if queued { requestMaintenance() }
  }

  /// Writes the queued events as records of the spool's format
  /// (``SpoolRecordFormat/write(event:into:)``), while the spool is writable; what it cannot
  /// write yet stays queued.
  func writePendingEvents() {
    guard writable.load(ordering: .relaxed) else { return }
    let events = state.withLock { state -> [StoreEvent] in
      defer { state.pendingEvents = [] }
      return state.pendingEvents
    }
    guard !events.isEmpty else { return }
    Self.writingEvent.whileSet {
      for (index, event) in events.enumerated() {
        guard writable.load(ordering: .relaxed) else {
          let rest = events[index...]
          state.withLock { $0.pendingEvents.insert(contentsOf: rest, at: 0) }
          return
        }
        Format.write(event: event, into: self)
      }
    }
  }
}
