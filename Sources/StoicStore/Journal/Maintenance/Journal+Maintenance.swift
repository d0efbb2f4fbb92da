import Dispatch

extension Journal {
  /// Seals the segment a roll replaced, if its seal is pending, and compresses every sealed
  /// `.log` segment now, on the calling thread; returns when none is left. A background run in
  /// progress is waited for first. Tests and benchmarks call it
  /// to wait for maintenance deterministically; with
  /// ``JournalOptions/backgroundMaintenance`` off, appends already compress as they seal, so
  /// it only finishes what a failure or a crash left behind.
  ///
  /// Each segment is rewritten exactly as safely as inline: the `.zst` goes to a temporary
  /// that is synced, renamed into place and made durable by a directory sync before the journal
  /// switches to it, and only then is the `.log` removed. Appends and readers go on meanwhile
  /// (a reader that finds the `.log` gone reads the `.zst`); dropping data and ``close()``
  /// wait for the segment in progress.
  ///
  /// Does nothing when ``JournalOptions/compressSealedSegments`` is off.
  /// - Throws: ``StoreError/Code/closed`` after ``close()``; ``StoreError/Code/poisoned``;
  ///   the file system's errors or ``StoreError/Code/corrupt`` for a damaged sealed `.log`
  ///   (which then stays as it is).
  public func compressSealedSegments() throws(StoreError) {
    guard options.compressSealedSegments else { return }
    try finishPendingSeal()
    while try compressOneSealedSegment() {}
  }

  /// Compresses the oldest sealed `.log` segment, holding the maintenance lock only for that
  /// one (so ``close()`` waits for at most one segment). Returns whether there was one.
  func compressOneSealedSegment() throws(StoreError) -> Bool {
    try withMaintenancePaused { () throws(StoreError) -> Bool in
      let job = try state.withLock {
        (core) throws(StoreError) -> (segment: JournalCore.Sealed, previous: UInt64)? in
        try core.checkUsable(directory)
        guard let index = core.sealed.firstIndex(where: { $0.kind == .log }) else { return nil }
        let previous = index > 0 ? (core.sealed[index - 1].first - 1) : 0
        return (core.sealed[index], previous)
      }
      guard let job else { return false }
      let file = try compressSegmentFile(job.segment, previous: job.previous)
      state.withLock { core in
        // Nothing else removes or replaces sealed segments while the maintenance lock is held.
        if let index = core.sealed.firstIndex(of: job.segment) {
          core.sealed[index] = JournalCore.Sealed(
            first: job.segment.first, kind: .compressed, name: file.name,
            bytes: file.outputBytes)
        }
      }
      try publishCompressed(job.segment, file: file)
      return true
    }
  }

  /// Compresses the sealed `.log` segments on a background queue, one segment per job, unless a
  /// run is already scheduled. A failure leaves the `.log` in place (as good as compressed) for
  /// a later run.
  ///
  /// Each job holds the journal only while it compresses its one segment and schedules the next
  /// with a weak reference: once an app drops its last reference to the journal (without
  /// ``close()``), at most the segment in progress is finished, and nothing touches the
  /// directory after that.
  func scheduleMaintenance() {
    let schedule = state.withLock { core -> Bool in
      guard !core.maintenanceScheduled, !core.closed else { return false }
      core.maintenanceScheduled = true
      return true
    }
    guard schedule else { return }
    // The job holds the journal only during the call below; the next job is scheduled through
    // the weak reference afterwards, so a journal nobody else holds is not revived by it.
    background.push { [weak self] in
      guard self?.compressOneInBackground() == true else { return }
      self?.scheduleMaintenance()
    }
  }

  /// One background maintenance job: finishes a pending seal and compresses one sealed
  /// segment. Returns whether one was compressed (so another may be left).
  private func compressOneInBackground() -> Bool {
    state.withLock { $0.maintenanceScheduled = false }
    do {
      try finishPendingSeal()
      return try compressOneSealedSegment()
    } catch {
      return false
    }
  }

  /// Runs `body` holding the maintenance lock, so no segment is being compressed meanwhile
  /// (dropping data and closing must not remove or abandon a segment in the middle of it).
  func withMaintenancePaused<Result>(_ body: () throws(StoreError) -> Result)
    throws(StoreError) -> Result
  {
    maintenanceLock.wait()
    defer { maintenanceLock.signal() }
    return try body()
  }
}
