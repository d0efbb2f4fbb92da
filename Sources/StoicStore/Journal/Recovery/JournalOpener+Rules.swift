extension JournalOpener {
  /// Acts on the decision for a sealed segment (see ``JournalSegmentRules``). Returns whether
  /// the segment stays in the journal.
  func apply(
    _ rule: JournalSegmentRules.Case, to segment: JournalCore.Sealed,
    in situation: JournalSegmentRules.Situation, after previous: Placed?,
    checkpoint: inout JournalCheckpoint?, report: inout JournalRecovery
  ) throws(StoreError) -> Bool {
    switch rule.decision {
    case .accept:
      return true
    case .refuse, .removeActive:
      // A sealed segment is never the active one (@F); refusing is the safe answer.
      assert(rule.decision == .refuse, "\(rule.label) applied to a sealed segment")
      throw refusal(
        placementError(segment, situation.placement, after: previous, lowWater: checkpoint))
    case .quarantine:
      try setAside(segment, report: &report)
      return false
    case .acceptMissing:
      reportMissing(before: segment, situation.placement)
      return true
    case .raiseLowWater:
      reportMissing(before: segment, situation.placement)
      try raiseLowWater(to: segment.first - 1, in: &checkpoint)
      return true
    }
  }

  /// What open refuses with for a segment that `placement` says is misplaced: ``StoreError``
  /// ``StoreError/Code/corrupt``, naming the segment (offset 0).
  func placementError(
    _ segment: JournalCore.Sealed, _ placement: JournalSegmentRules.Placement,
    after previous: Placed?, lowWater checkpoint: JournalCheckpoint?
  ) -> StoreError {
    let path = StorePath.join(directory, segment.name)
    let before =
      previous.map { "the segment before it (\($0.segment.name)) ends at sequence \($0.end)" }
      ?? "the low-water mark is \(checkpoint?.lowWater ?? 0)"
    let why: String
    switch placement {
    case .contiguous:
      why = "it is in place"
    case .overlapping:
      why = "\(before): the two claim the same sequences"
    case .missing(let range):
      why = "\(before): records \(range.lowerBound)...\(range.upperBound) are missing"
    }
    return StoreError(
      .corrupt,
      "journal segment starts at sequence \(segment.first), but \(why); open with "
        + "JournalOptions.salvage to keep every record left", path: path,
      cause: JournalDamage(path: path, offset: 0, length: 0))
  }

  /// Reports `error` (``StoreEvents/journalCorruptionDetected``, naming its damage) and
  /// returns it, to be thrown.
  func refusal(_ error: StoreError) -> StoreError {
    let damage = error.cause as? JournalDamage
    events.emit(
      StoreEvents.journalCorruptionDetected,
      [
        ("path", damage?.path ?? error.path ?? directory),
        ("offset", String(damage?.offset ?? 0)), ("length", String(damage?.length ?? 0)),
      ])
    return error
  }

  /// Salvage's answer to a segment file that breaks a rule: set aside whole, the directory
  /// synced, the salvage reported.
  func setAside(_ segment: JournalCore.Sealed, report: inout JournalRecovery)
    throws(StoreError)
  {
    let (aside, size) = try quarantine(segment, report: &report)
    try fileSystem.syncDirectory(directory)
    events.emit(
      StoreEvents.journalSalvaged,
      [
        ("path", StorePath.join(directory, segment.name)), ("quarantinedAs", aside),
        ("damagedBytes", String(size)), ("keptRecords", "0"),
      ])
  }

  /// Salvage's answer to records no file holds any more: the segment after them is kept, and
  /// the loss reported (``StoreEvents/journalCorruptionDetected`` with the segment,
  /// ``StoreEvents/journalSalvaged`` with nothing set aside).
  func reportMissing(before segment: JournalCore.Sealed, _ placement: JournalSegmentRules.Placement)
  {
    guard case .missing = placement else { return }
    let path = StorePath.join(directory, segment.name)
    events.emit(
      StoreEvents.journalCorruptionDetected, [("path", path), ("offset", "0"), ("length", "0")])
    events.emit(
      StoreEvents.journalSalvaged,
      [
        ("path", path), ("quarantinedAs", ""), ("damagedBytes", "0"),
        ("keptRecords", "0"),
      ])
  }

  /// Raises the low-water mark to `sequence` (@E): the checkpoint is replaced atomically, its
  /// snapshot kept, before anything relies on it.
  func raiseLowWater(to sequence: UInt64, in checkpoint: inout JournalCheckpoint?)
    throws(StoreError)
  {
    var raised = checkpoint ?? .lowWater(0)
    guard sequence > raised.lowWater else { return }
    raised.lowWater = sequence
    try raised.store(in: directory, fileSystem: fileSystem)
    checkpoint = raised
  }

  /// Before an active segment is made after the last record: if the last segment holds no
  /// record and is not covered by the low-water mark, the new segment would take its name (a
  /// sealed segment holding nothing ends at its first sequence - 1). @P: refused, or with
  /// salvage set aside (it holds nothing), as many times as that is so.
  func clearNameForActive(
    _ placed: inout [Placed], lowWater: UInt64, report: inout JournalRecovery
  ) throws(StoreError) {
    while let last = placed.last, last.end < last.segment.first, lowWater < last.segment.first {
      guard options.salvage else {
        let path = StorePath.join(directory, last.segment.name)
        throw refusal(
          StoreError(
            .corrupt,
            "the last journal segment holds no record and no active segment follows it: the "
              + "active segment is missing; open with JournalOptions.salvage to set it aside",
            path: path, cause: JournalDamage(path: path, offset: 0, length: 0)))
      }
      try setAside(last.segment, report: &report)
      placed.removeLast()
    }
  }
}
