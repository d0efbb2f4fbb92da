import Dispatch

extension Journal {
  /// Finishes the pending seal of the previous segment, if any, outside the lock: claims it,
  /// makes it (``performSeal(_:)``), then records the segment as sealed. If another thread has
  /// claimed it, waits for that one to finish. Returns once no seal is pending.
  ///
  /// - Throws: ``StoreError/Code/poisoned`` (or the failed call's error) when the seal failed:
  ///   the segment's unsynced records may be lost, so the journal is poisoned.
  func finishPendingSeal() throws(StoreError) {
    enum Step {
      case done
      case wait(DispatchSemaphore)
      case seal(JournalCore.Sealing)
    }
    while true {
      let step = try state.withLock { (core) throws(StoreError) -> Step in
        if let poison = core.poison { throw poison }
        guard let sealing = core.sealing else { return .done }
        if sealing.claimed {
          let semaphore = DispatchSemaphore(value: 0)
          core.sealWaiters.append(semaphore)
          return .wait(semaphore)
        }
        core.sealing?.claimed = true
        return .seal(sealing)
      }
      switch step {
      case .done:
        return
      case .wait(let semaphore):
        semaphore.wait()
      case .seal(let job):
        do {
          try performSeal(job)
        } catch {
          state.withLock { core in
            core.poison = poisonError(after: error)
            core.sealing?.claimed = false
            core.wakeSealWaiters()
          }
          throw error
        }
        state.withLock { core in completeSeal(job, core: &core) }
        return
      }
    }
  }

  /// Finishes a pending, unclaimed seal under the lock (a caller that holds the journal
  /// exclusively, see ``withExclusiveCore(_:)``, never finds one claimed).
  ///
  /// - Throws: As ``finishPendingSeal()``; a claimed seal is an internal error.
  func sealPendingLocked(core: inout JournalCore) throws(StoreError) {
    guard let job = core.sealing else { return }
    guard !job.claimed else {
      throw StoreError(
        .internalInconsistency, "a segment seal is in progress on another thread", path: directory)
    }
    do {
      try performSeal(job)
    } catch {
      core.poison = poisonError(after: error)
      throw error
    }
    completeSeal(job, core: &core)
  }

  /// Seals a replaced segment (``completeSegment(_:lastSequence:markedSequence:)``), then a
  /// directory sync makes the name of the segment that replaced it durable, before any sync of
  /// that one can acknowledge one of its records. Touches no journal state: the segment is no
  /// longer written by appends.
  func performSeal(_ job: JournalCore.Sealing) throws(StoreError) {
    try completeSegment(
      job.segment, lastSequence: job.lastSequence, markedSequence: job.markedSequence)
    if !options.mutations.contains(.noDirectorySyncOnCreate) {
      try fileSystem.syncDirectory(directory)
    }
  }

  /// Makes a segment complete, as sealing and closing need it: its mapping closed, sync (its
  /// records become durable; skipped when everything up to its end already is), a final marker
  /// claiming them unless one already does, the preallocated zeros cut, and a sync of those two
  /// if there were any. The handle stays open.
  func completeSegment(
    _ segment: JournalCore.Active, lastSequence: UInt64, markedSequence: UInt64
  ) throws(StoreError) {
    // Unmapped first: writing back pages that are still mapped would make the kernel
    // write-protect each one, interrupting the appending thread on every core.
    try segment.mapping?.close()
    if segment.end > segment.syncedEnd { try fileSystem.sync(segment.handle) }
    var end = segment.end
    var changed = false
    if markedSequence < lastSequence, lastSequence >= segment.first {
      let marker = JournalFrame.marker(
        durableSequence: lastSequence, durableEnd: segment.end, segmentFirst: segment.first,
        position: segment.end)
      do throws(StoreError) {
        try fileSystem.write(segment.handle, marker, at: segment.end)
        end = segment.end + UInt64(marker.count)
      } catch {
        // Best effort, as every marker: the cut below removes whatever part of it landed.
      }
      changed = true
    }
    if !options.mutations.contains(.keepPreallocationOnSeal),
      try fileSystem.size(segment.handle) > end
    {
      try fileSystem.truncate(segment.handle, to: end)
      changed = true
    }
    if changed { try fileSystem.sync(segment.handle) }
  }

  /// Records a finished seal: the segment joins the sealed ones, its records are durable, and
  /// whoever waited for the seal is woken. Compresses it inline when maintenance is not in the
  /// background; otherwise the caller schedules it.
  func completeSeal(_ job: JournalCore.Sealing, core: inout JournalCore) {
    try? fileSystem.close(job.segment.handle)
    core.sealing = nil
    core.sealed.append(
      JournalCore.Sealed(first: job.segment.first, kind: .log, name: job.segment.name))
    core.durableSequence = max(core.durableSequence, job.lastSequence)
    core.wakeSealWaiters()
    if options.compressSealedSegments, !options.backgroundMaintenance {
      // A failed compression leaves the sealed `.log` in place, which is as good.
      try? compressSealed(index: core.sealed.count - 1, core: &core)
    }
  }

  /// Finishes the pending seal on the journal's ``background`` queue, then compresses it there
  /// too (when sealed segments are compressed). A failure poisons the journal, as a failed sync
  /// does.
  func scheduleSeal() {
    background.push { [weak self] in
      guard let self else { return }
      do {
        try self.finishPendingSeal()
      } catch {
        return
      }
      if self.options.compressSealedSegments { self.scheduleMaintenance() }
    }
  }
}
