extension JournalOpener {
  /// Recovers the segment before the active one, whose seal (made after the active segment
  /// was created, see ``Journal/roll(core:)``) may not have happened.
  ///
  /// It is scanned as an active segment is: damage that a later marker proves durable is
  /// corruption (refused, or salvaged); otherwise it ends at its first invalid frame. Then:
  /// - If its last record is the one just before the active segment's first, nothing is
  ///   missing: a torn tail or preallocated zeros after it are cut (truncate, then sync) and
  ///   it is sealed. The scan is returned.
  /// - Otherwise a crash of the machine lost its end before the seal made it durable. No
  ///   record of the active segment can have been durable then (every sync of the active
  ///   segment finishes this seal first), so the active segment is removed (reported with
  ///   ``StoreEvents/journalTruncated``) and `nil` is returned: this segment becomes the
  ///   active one, and its own tail is cut as an active segment's is. A valid sync marker in
  ///   the active segment would contradict that: corruption.
  func settleReplaced(
    _ segment: JournalCore.Sealed, next: JournalCore.Sealed, previous: UInt64,
    report: inout JournalRecovery, peak: inout Int
  ) throws(StoreError) -> LogScan? {
    let scan = try scanLogRepairing(
      segment.first, name: segment.name, previous: previous, isActive: true, report: &report,
      peak: &peak)
    let path = Path.join(directory, segment.name)
    if scan.lastSequence + 1 == next.first {
      guard scan.validEnd < scan.fileSize else { return scan }
      let handle = try fileSystem.open(path, .readWrite)
      defer { try? fileSystem.close(handle) }
      if let damage = scan.damage {
        _ = try cutTornTail(
          handle, name: segment.name, scan: scan, damage: damage, report: &report)
      } else {
        // Only the preallocated zeros: cut without a report.
        try fileSystem.truncate(handle, to: scan.validEnd)
        try fileSystem.sync(handle)
      }
      return scan
    }
    let nextPath = Path.join(directory, next.name)
    if let marker = try firstMarker(in: next, previous: scan.lastSequence, peak: &peak) {
      events.emit(
        StoreEvents.journalCorruptionDetected,
        [("path", path), ("offset", String(scan.validEnd)), ("length", "0")])
      throw StoreError(
        .corrupt,
        "journal segment ends at sequence \(scan.lastSequence), but the next segment starts at "
          + "\(next.first) and holds a sync marker at offset \(marker): records are missing",
        path: path, cause: JournalDamage(path: path, offset: scan.validEnd, length: 0))
    }
    let dropped = try fileSystem.fileSize(nextPath) ?? 0
    try fileSystem.remove(nextPath)
    try fileSystem.syncDirectory(directory)
    reportCut(path: nextPath, validBytes: 0, dropped: dropped)
    report.truncatedBytes += dropped
    return nil
  }

  /// Reports bytes cut at open with ``StoreEvents/journalTruncated``.
  func reportCut(path: String, validBytes: UInt64, dropped: UInt64) {
    events.emit(
      StoreEvents.journalTruncated,
      [("path", path), ("validBytes", String(validBytes)), ("droppedBytes", String(dropped))])
  }

  /// The offset of the first valid sync marker in `segment`, or `nil`.
  private func firstMarker(
    in segment: JournalCore.Sealed, previous: UInt64, peak: inout Int
  ) throws(StoreError) -> UInt64? {
    let handle = try fileSystem.open(Path.join(directory, segment.name), .readOnly)
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
