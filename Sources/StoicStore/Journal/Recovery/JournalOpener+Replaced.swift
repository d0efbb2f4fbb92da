extension JournalOpener {
  /// Places the active segment after the sealed ones (see ``JournalSegmentRules``) and returns
  /// the segment that is active now: `candidate`; the one a roll replaced, when `candidate` is
  /// removed (@F) or set aside (@C); or `nil` when no `.log` is left to be active. Also returns
  /// whether records before the active segment are missing (@H, @J), which its open must
  /// mark durably.
  ///
  /// When the last placed segment is a `.log`, it is the one a roll replaced, whose seal (made
  /// after the active segment was created, see ``Journal/roll(core:)``) may not have happened.
  /// It was scanned as an active segment is (unless a file between the two was set aside), so
  /// damage that a later marker proves durable was refused or salvaged, and it ends at its
  /// first invalid frame. If the active segment starts right after its last record, nothing is
  /// missing: a torn tail or preallocated zeros after that record are cut (truncate, then
  /// sync) and it is sealed (@A). Otherwise the rules decide between a torn seal (@F) and lost
  /// records (@G, @H). Which segment comes before the active one is decided by the files left
  /// in place, as the next open will see them.
  func placeActive(
    _ candidate: JournalCore.Sealed, after placed: inout [Placed],
    checkpoint: inout JournalCheckpoint?, report: inout JournalRecovery, peak: inout Int
  ) throws(StoreError) -> (segment: JournalCore.Sealed?, afterMissing: Bool) {
    var unsealed = placed.last?.scan
    while true {
      let previous = placed.last
      let placement = JournalSegmentRules.place(
        first: candidate.first, after: previous?.end, lowWater: checkpoint?.lowWater ?? 0)
      var situation = JournalSegmentRules.Situation(
        placement: placement, isFirst: previous == nil, followsUnsealed: unsealed != nil,
        holdsMarker: false, salvage: options.salvage)
      var marker: UInt64?
      if case .missing = placement, unsealed != nil, let previous {
        marker = try firstMarker(in: candidate, previous: previous.end, peak: &peak)
        situation.holdsMarker = marker != nil
      }
      let rule = JournalSegmentRules.decide(situation)
      switch rule.decision {
      case .accept:
        if let unsealed, let previous {
          try settleReplaced(previous.segment, scan: unsealed, report: &report)
        }
        return (candidate, false)
      case .refuse:
        if let marker, let unsealed, let previous {
          // @G: the seal had been made, so the end of the replaced segment was durable.
          let path = StorePath.join(directory, previous.segment.name)
          throw refusal(
            StoreError(
              .corrupt,
              "journal segment ends at sequence \(previous.end), but the next segment starts "
                + "at \(candidate.first) and holds a sync marker at offset \(marker): records "
                + "are missing", path: path,
              cause: JournalDamage(path: path, offset: unsealed.validEnd, length: 0)))
        }
        throw refusal(placementError(candidate, placement, after: previous, lowWater: checkpoint))
      case .quarantine:
        try setAside(candidate, report: &report)
        guard unsealed != nil else { return (nil, false) }
        let replaced = placed.removeLast()
        return (replaced.segment, replaced.afterMissing)
      case .raiseLowWater:
        reportMissing(before: candidate, placement)
        try raiseLowWater(to: candidate.first - 1, in: &checkpoint)
        return (candidate, false)
      case .removeActive:
        // @F: power was lost before the replaced segment's seal; nothing in the active one
        // was durable.
        let path = StorePath.join(directory, candidate.name)
        let dropped = try fileSystem.fileSize(path) ?? 0
        try fileSystem.remove(path)
        try fileSystem.syncDirectory(directory)
        reportCut(path: path, validBytes: 0, dropped: dropped)
        report.truncatedBytes += dropped
        let replaced = placed.removeLast()
        return (replaced.segment, replaced.afterMissing)
      case .acceptMissing:
        if unsealed != nil, let previous {
          // @H: a sync of the active segment returned, so the seal of the replaced one had been
          // made: its end is durable data, checked again as a sealed segment's (salvage sets
          // its damaged bytes aside), and the active segment is placed again after it.
          if previous.scannedAsActive {
            let scan = try scanLogRepairing(
              previous.segment.first, name: previous.segment.name,
              previous: previous.segment.first - 1, isActive: false, report: &report,
              peak: &peak)
            placed[placed.count - 1].end = scan.lastSequence
            placed[placed.count - 1].records = scan.records
          }
          unsealed = nil
          continue
        }
        reportMissing(before: candidate, placement)
        return (candidate, true)
      }
    }
  }

  /// Seals the segment a roll replaced, found complete: a torn tail or preallocated zeros
  /// after its last record are cut (truncate, then sync).
  private func settleReplaced(
    _ segment: JournalCore.Sealed, scan: LogScan, report: inout JournalRecovery
  ) throws(StoreError) {
    guard scan.validEnd < scan.fileSize else { return }
    let handle = try fileSystem.open(StorePath.join(directory, segment.name), .readWrite)
    defer { try? fileSystem.close(handle) }
    if let damage = scan.damage {
      _ = try cutTornTail(handle, name: segment.name, scan: scan, damage: damage, report: &report)
    } else {
      // Only the preallocated zeros: cut without a report.
      try fileSystem.truncate(handle, to: scan.validEnd)
      try fileSystem.sync(handle)
    }
  }

  /// Reports bytes cut at open with ``StoreEvents/journalTruncated``: `dropped` bytes of
  /// interrupted appends, then `zeros` preallocated zeros.
  func reportCut(path: String, validBytes: UInt64, dropped: UInt64, zeros: UInt64 = 0) {
    events.emit(
      StoreEvents.journalTruncated,
      [
        ("path", path), ("validBytes", String(validBytes)), ("droppedBytes", String(dropped)),
        ("zeroBytes", String(zeros)),
      ])
  }

  /// The offset of the first valid sync marker in `segment`, or `nil`.
  private func firstMarker(
    in segment: JournalCore.Sealed, previous: UInt64, peak: inout Int
  ) throws(StoreError) -> UInt64? {
    let handle = try fileSystem.open(StorePath.join(directory, segment.name), .readOnly)
    defer { try? fileSystem.close(handle) }
    var scanner = JournalSegmentScanner(
      fileSystem: fileSystem, handle: handle, fileSize: try fileSystem.size(handle),
      options: options, segmentFirst: segment.first,
      previousSequence: max(previous, segment.first - 1))
    defer { peak = max(peak, scanner.reader.peakBytes) }
    while let item = try scanner.next() {
      switch item {
      case .record: continue
      case .marker(let offset, _): return offset
      case .damage(let offset):
        return try scanner.durableClaim(after: offset) > 0 ? offset : nil
      }
    }
    return nil
  }
}
