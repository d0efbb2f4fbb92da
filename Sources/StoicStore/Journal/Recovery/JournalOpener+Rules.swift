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

  /// @J: a `.log` accepted after missing records ends with a durable sync marker claiming all
  /// of it (the marker its seal would have left), written as soon as it is placed, before open
  /// sets aside or removes any file after it. Whichever file ends up last, at this open or
  /// after a crash in it, no later open takes this segment for the one after a torn seal (@F)
  /// and removes its records. Left to the active segment's open (see `recover`) when the scan
  /// did not reach the end of the file: the torn tail or preallocated zeros of the segment a
  /// roll replaced are settled when the active segment is placed.
  func markAfterMissing(_ segment: JournalCore.Sealed, scan: inout LogScan) throws(StoreError) {
    guard !scan.endsDurablyMarked, scan.damage == nil, scan.validEnd == scan.fileSize else {
      return
    }
    let handle = try fileSystem.open(StorePath.join(directory, segment.name), .readWrite)
    defer { try? fileSystem.close(handle) }
    // Its records are durable first (a marker claims only what a sync made durable).
    try fileSystem.sync(handle)
    scan.validEnd = try writeDurableMarker(
      handle, through: scan.lastSequence, at: scan.validEnd, segmentFirst: segment.first)
    scan.fileSize = scan.validEnd
    scan.endsDurablyMarked = true
  }

  /// Writes at `end` a sync marker claiming the segment's records through `sequence`, all of
  /// which a sync has already made durable (a marker claims only that), and syncs it. Returns
  /// the segment's new end.
  func writeDurableMarker(
    _ handle: StoreFileHandle, through sequence: UInt64, at end: UInt64, segmentFirst: UInt64
  ) throws(StoreError) -> UInt64 {
    let marker = JournalFrame.marker(
      durableSequence: sequence, durableEnd: end, segmentFirst: segmentFirst, position: end)
    try fileSystem.write(handle, marker, at: end)
    try fileSystem.sync(handle)
    return end + UInt64(marker.count)
  }

  /// @O: no active segment is left and every sequence is used (the last record, or the
  /// low-water mark, is 2^62), so none can be made after the last record as @N makes it. The
  /// last segment left, if a `.log`, is then the active segment: the next open takes the last
  /// `.log` for the active one, so this open does too, and marks it durably when records
  /// before it are missing (as any active segment after missing records is, @J), so that no
  /// later open takes it for the segment after a torn seal (@F) and removes its records.
  /// Returns it, removed from `placed`, with whether records before it are missing; `nil` when
  /// the last segment is compressed or none is left (the journal then opens with no active
  /// segment, for reading).
  func activeAtSequenceLimit(_ placed: inout [Placed], lowWater: UInt64) -> (
    segment: JournalCore.Sealed, afterMissing: Bool
  )? {
    guard let last = placed.last, last.segment.kind == .log,
      max(last.end, lowWater) >= JournalFrame.maximumSequence
    else { return nil }
    placed.removeLast()
    return (last.segment, last.afterMissing)
  }
}
