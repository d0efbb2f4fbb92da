extension JournalOpener {
  /// Scans a `.log` segment; damage inside durable data is refused, or salvaged and the
  /// segment scanned again. A torn tail is left for the caller to cut.
  func scanLogRepairing(
    _ first: UInt64, name: String, previous: UInt64, isActive: Bool,
    report: inout JournalRecovery, peak: inout Int
  ) throws(StoreError) -> LogScan {
    let scan = try scanLog(first, name: name, previous: previous, isActive: isActive, peak: &peak)
    guard let damage = scan.damage, damage.durable else { return scan }
    let path = StorePath.join(directory, name)
    events.emit(
      StoreEvents.journalCorruptionDetected,
      [("path", path), ("offset", String(damage.offset)), ("length", String(damage.length))])
    guard options.salvage else {
      throw StoreError(
        .corrupt,
        "journal segment is damaged inside durable data: \(damage.length) bytes at offset "
          + "\(damage.offset); open with JournalOptions.salvage to keep the later records",
        path: path, cause: JournalDamage(path: path, offset: damage.offset, length: damage.length))
    }
    try salvageLog(first, name: name, previous: previous, isActive: isActive, report: &report)
    let rescan = try scanLog(
      first, name: name, previous: previous, isActive: isActive, peak: &peak)
    if let again = rescan.damage, again.durable {
      throw StoreError(
        .corrupt, "journal segment is still damaged after salvage at offset \(again.offset)",
        path: path, cause: JournalDamage(path: path, offset: again.offset, length: again.length))
    }
    return rescan
  }

  /// Walks a `.log` segment to its end or its first invalid frame, and classifies the damage:
  /// durable (a later valid marker claims it, or the segment is sealed) or a torn tail.
  func scanLog(
    _ first: UInt64, name: String, previous: UInt64, isActive: Bool, peak: inout Int
  ) throws(StoreError) -> LogScan {
    let handle = try fileSystem.open(StorePath.join(directory, name), .readOnly)
    defer { try? fileSystem.close(handle) }
    let size = try fileSystem.size(handle)
    var scanner = JournalSegmentScanner(
      fileSystem: fileSystem, handle: handle, fileSize: size, options: options,
      segmentFirst: first, previousSequence: previous)
    var result = LogScan(fileSize: size, lastSequence: previous)
    // One pass over each read window, as a replay makes it.
    var records = 0
    let damage = try scanner.forEachRecord { (_, _) throws(StoreError) in records += 1 }
    result.records = records
    result.lastSequence = scanner.previousSequence
    result.validEnd = scanner.offset
    if let marker = scanner.lastMarker,
      marker.offset + UInt64(JournalFrame.markerSize) == scanner.offset,
      marker.durableEnd == marker.offset, marker.durableSequence == scanner.previousSequence
    {
      result.endsDurablyMarked = true
    }
    // The active segment's preallocated tail: zeros up to the end of the file are where the
    // next frame goes, not damage.
    var zeroTail = false
    if isActive, let offset = damage { zeroTail = try scanner.firstNonZero(from: offset) == size }
    if let offset = damage, !zeroTail {
      let claim = try scanner.durableClaim(after: offset)
      let durable = !isActive || claim > offset
      var length = size - offset
      if durable, let next = try scanner.resynchronize(after: offset) {
        length = next - offset
      }
      result.damage = (offset, length, durable)
      result.endsDurablyMarked = false
    }
    peak = max(peak, scanner.reader.peakBytes)
    return result
  }

  /// Rewrites a damaged segment without its damaged bytes: frames before the damage as they
  /// are, every valid record after it (markers after it are dropped, their positions change),
  /// and a final marker; the damaged bytes are copied to `<segment>.corrupt-<offset>` first.
  /// The rewrite replaces the segment atomically (temporary, sync, rename, directory sync).
  func salvageLog(
    _ first: UInt64, name: String, previous: UInt64, isActive: Bool,
    report: inout JournalRecovery
  ) throws(StoreError) {
    let path = StorePath.join(directory, name)
    let temporary = path + ".salvage" + JournalFileNames.temporarySuffix
    let source = try fileSystem.open(path, .readOnly)
    defer { try? fileSystem.close(source) }
    let size = try fileSystem.size(source)
    var output = try JournalTemporaryFile(
      path: temporary, directory: directory, fileSystem: fileSystem)
    defer { output.abandon() }
    var scanner = JournalSegmentScanner(
      fileSystem: fileSystem, handle: source, fileSize: size, options: options,
      segmentFirst: first, previousSequence: previous)
    var shifted = false
    var kept = 0
    var lastSequence = previous
    var quarantined: [String] = []
    var damagedBytes: UInt64 = 0
    walk: while let item = try scanner.next() {
      switch item {
      case .record(let sequence, let offset, let frameSize):
        try output.append(try scanner.frame(at: offset, size: frameSize))
        lastSequence = sequence
        if shifted { kept += 1 }
      case .marker(let offset, _):
        guard !shifted else { continue }
        try output.append(try scanner.frame(at: offset, size: JournalFrame.markerSize))
      case .damage(let offset):
        let claim = try scanner.durableClaim(after: offset)
        if isActive && claim <= offset { break walk }  // a torn tail: dropped
        let next = try scanner.resynchronize(after: offset)
        let damagedEnd = next ?? size
        let aside = try quarantinePath(of: name, offset: offset)
        try copyRange(source, from: offset, to: damagedEnd, into: aside)
        quarantined.append(aside)
        damagedBytes += damagedEnd - offset
        shifted = true
        guard let next else { break walk }
        scanner.offset = next
      }
    }
    try output.append(
      JournalFrame.marker(
        durableSequence: lastSequence, durableEnd: output.end, segmentFirst: first,
        position: output.end))
    // The quarantine copies' names are made durable before the rename.
    try output.commit(as: path, syncDirectoryFirst: true)
    report.quarantinedFiles += quarantined
    report.quarantinedBytes += damagedBytes
    report.salvagedRecords += kept
    events.emit(
      StoreEvents.journalSalvaged,
      [
        ("path", path), ("quarantinedAs", quarantined.joined(separator: ",")),
        ("damagedBytes", String(damagedBytes)), ("keptRecords", String(kept)),
      ])
  }

  /// Copies `[start, end)` of `source` to a new durable file at `destination`, one window at a
  /// time.
  private func copyRange(
    _ source: StoreFileHandle, from start: UInt64, to end: UInt64, into destination: String
  ) throws(StoreError) {
    let handle = try fileSystem.open(destination, .createExclusive)
    defer { try? fileSystem.close(handle) }
    var position = start
    while position < end {
      let count = Int(min(UInt64(max(options.readWindow, 4096)), end - position))
      let bytes = try fileSystem.read(source, count: count, at: position)
      guard !bytes.isEmpty else { break }
      try fileSystem.write(handle, bytes, at: position - start)
      position += UInt64(bytes.count)
    }
    try fileSystem.sync(handle)
  }
}
