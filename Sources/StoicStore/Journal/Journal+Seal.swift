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
      throw StoreError(.other, "a segment seal is in progress on another thread", path: directory)
    }
    do {
      try performSeal(job)
    } catch {
      core.poison = poisonError(after: error)
      throw error
    }
    completeSeal(job, core: &core)
  }

  /// Seals a replaced segment: its mapping closed, sync (its records become durable), a final
  /// marker claiming them, the preallocated zeros cut, sync, close. Touches no journal
  /// state: the segment is no longer written by appends.
  func performSeal(_ job: JournalCore.Sealing) throws(StoreError) {
    let segment = job.segment
    // Unmapped first: writing back pages that are still mapped would make the kernel
    // write-protect each one, interrupting the appending thread on every core.
    try segment.mapping?.close()
    try fileSystem.sync(segment.handle)
    var end = segment.end
    if job.markedSequence < job.lastSequence, job.lastSequence >= segment.first {
      let marker = JournalFrame.marker(
        durableSequence: job.lastSequence, durableEnd: segment.end, segmentFirst: segment.first,
        position: segment.end)
      do throws(StoreError) {
        try fileSystem.write(segment.handle, marker, at: segment.end)
        end = segment.end + UInt64(marker.count)
      } catch {
        // Best effort, as every marker: the cut below removes whatever part of it landed.
      }
    }
    if !options.mutations.contains(.keepPreallocationOnSeal),
      try fileSystem.size(segment.handle) > end
    {
      try fileSystem.truncate(segment.handle, to: end)
    }
    try fileSystem.sync(segment.handle)
    try? fileSystem.close(segment.handle)
  }

  /// Records a finished seal: the segment joins the sealed ones, its records are durable, and
  /// whoever waited for the seal is woken. Compresses it inline when maintenance is not in the
  /// background; otherwise the caller schedules it.
  func completeSeal(_ job: JournalCore.Sealing, core: inout JournalCore) {
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

  /// Finishes the pending seal on a background queue, then compresses it there too (when
  /// sealed segments are compressed). A failure poisons the journal, as a failed sync does.
  func scheduleSeal() {
    DispatchQueue.global(qos: .userInitiated).async { [weak self] in
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
