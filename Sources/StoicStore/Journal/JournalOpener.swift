/// Opens a journal directory: takes the lock and applies the recovery rules described on
/// ``Journal``.
struct JournalOpener {
  let directory: String
  let fileSystem: any FileSystem
  let options: JournalOptions
  let events: EventSink

  /// What a scan of one `.log` segment found.
  struct LogScan {
    var validEnd: UInt64 = 0
    var fileSize: UInt64 = 0
    var lastSequence: UInt64
    var records = 0
    var damage: (offset: UInt64, length: UInt64, durable: Bool)?
    /// The last valid frame is a sync marker claiming every record and every byte before it:
    /// the segment was left by a seal or a close, or synced with nothing appended after.
    var endsDurablyMarked = false
  }

  func open(report: inout JournalRecovery) throws(StoreError) -> JournalCore {
    guard options.maxRecordSize >= 0, options.maxRecordSize <= 1 << 30,
      options.readWindow > 0, options.segmentSize > 0
    else {
      throw StoreError(
        .invalidArgument,
        "journal options out of range: maxRecordSize 0...1 GiB, readWindow and segmentSize > 0",
        path: directory)
    }
    try fileSystem.createDirectoryDurably(directory)
    let lockPath = Path.join(directory, JournalFileNames.lock)
    let lockHandle = try fileSystem.open(lockPath, .createOrOpen)
    do throws(StoreError) {
      try fileSystem.lock(lockHandle)
    } catch {
      try? fileSystem.close(lockHandle)
      guard error.code == .locked else { throw error }
      var locked = error
      locked.message = "the journal in \(directory) is open in another handle or process"
      locked.path = lockPath
      throw locked
    }
    do throws(StoreError) {
      var core = try recover(report: &report)
      core.lockHandle = lockHandle
      return core
    } catch {
      try? fileSystem.close(lockHandle)
      throw error
    }
  }

  private func recover(report: inout JournalRecovery) throws(StoreError) -> JournalCore {
    var directoryChanged = false
    let names = try fileSystem.list(directory)
    for name in names where name.hasSuffix(JournalFileNames.temporarySuffix) {
      try fileSystem.remove(Path.join(directory, name))
      directoryChanged = true
    }
    let lowWater = try readLowWater(names: names, changed: &directoryChanged)
    var segments = try pairSegments(names: names, report: &report, changed: &directoryChanged)
    // Finish an interrupted drop: sealed segments wholly at or below the low-water mark.
    while segments.count > 1, segments[1].first - 1 <= lowWater {
      try fileSystem.remove(Path.join(directory, segments[0].name))
      segments.removeFirst()
      report.removedCoveredSegments += 1
      directoryChanged = true
    }
    if directoryChanged { try fileSystem.syncDirectory(directory) }

    var core = JournalCore()
    core.mappingEnabled = options.mappedAppends
    core.lowWater = lowWater
    var previous: UInt64 = 0
    var windowPeak = 0
    var activeSegment: (first: UInt64, name: String)?
    for (index, segment) in segments.enumerated() {
      let isLast = index == segments.count - 1
      if segment.kind == .log && isLast {
        activeSegment = (segment.first, segment.name)
        continue
      }
      let start = max(previous, segment.first - 1)
      if segment.kind == .compressed {
        let outcome = try verifyCompressed(segment, previous: start, report: &report)
        windowPeak = max(windowPeak, outcome.peak)
        report.records += outcome.records
        guard let last = outcome.lastSequence else { continue }  // quarantined by salvage
        previous = last
      } else if index == segments.count - 2, segments[index + 1].kind == .log {
        // The segment before the active one: its seal may not have been made.
        let settled = try settleReplaced(
          segment, next: segments[index + 1], previous: start, report: &report,
          peak: &windowPeak)
        guard let scan = settled else {
          // The active segment held nothing durable after this torn one and is gone: this
          // one is the active segment again.
          activeSegment = (segment.first, segment.name)
          break
        }
        previous = scan.lastSequence
        report.records += scan.records
      } else {
        let scan = try scanLogRepairing(
          segment.first, name: segment.name, previous: start, isActive: false,
          report: &report, peak: &windowPeak)
        previous = scan.lastSequence
        report.records += scan.records
      }
      core.sealed.append(segment)
    }

    let first: UInt64
    let name: String
    let handle: FileHandle
    var end: UInt64 = 0
    var marked = false
    if let activeSegment {
      first = activeSegment.first
      name = activeSegment.name
      let scan = try scanLogRepairing(
        first, name: name, previous: max(previous, first - 1), isActive: true,
        report: &report, peak: &windowPeak)
      report.records += scan.records
      previous = scan.lastSequence
      end = scan.validEnd
      marked = scan.endsDurablyMarked
      handle = try fileSystem.open(Path.join(directory, name), .readWrite)
      do throws(StoreError) {
        if let damage = scan.damage {
          end = try cutTornTail(handle, name: name, scan: scan, damage: damage, report: &report)
        }
        // What was found is made durable before it is claimed durable, unless its last frame
        // is a marker that already claims all of it (a marker is written only after the sync
        // it describes returned): reopening a closed journal then writes nothing.
        if !marked { try fileSystem.sync(handle) }
      } catch {
        try? fileSystem.close(handle)
        throw error
      }
    } else {
      first = max(previous, lowWater) + 1
      name = JournalFileNames.segment(first: first, kind: .log)
      handle = try fileSystem.open(Path.join(directory, name), .createOrOpen)
      do throws(StoreError) {
        try fileSystem.truncate(handle, to: 0)
        try fileSystem.sync(handle)
        if !options.mutations.contains(.noDirectorySyncOnCreate) {
          try fileSystem.syncDirectory(directory)
        }
      } catch {
        try? fileSystem.close(handle)
        throw error
      }
    }
    core.active = JournalCore.Active(
      first: first, name: name, path: Path.join(directory, name), handle: handle, end: end,
      syncedEnd: end)
    core.lastSequence = max(previous, lowWater, first - 1)
    core.durableSequence = core.lastSequence
    core.markedSequence = marked ? core.lastSequence : first - 1
    report.peakBufferBytes = windowPeak
    return core
  }

  /// Cuts the torn tail at `damage.offset` (truncate, then sync), or with the
  /// `noTailTruncation` mutation leaves it and continues after it. Returns the new end.
  func cutTornTail(
    _ handle: FileHandle, name: String, scan: LogScan,
    damage: (offset: UInt64, length: UInt64, durable: Bool), report: inout JournalRecovery
  ) throws(StoreError) -> UInt64 {
    if options.mutations.contains(.noTailTruncation) { return scan.fileSize }
    try fileSystem.truncate(handle, to: damage.offset)
    try fileSystem.sync(handle)
    let dropped = scan.fileSize - damage.offset
    report.truncatedBytes += dropped
    reportCut(path: Path.join(directory, name), validBytes: damage.offset, dropped: dropped)
    return damage.offset
  }

  private func readLowWater(names: [String], changed: inout Bool) throws(StoreError) -> UInt64 {
    guard names.contains(JournalFileNames.checkpoint) else { return 0 }
    let path = Path.join(directory, JournalFileNames.checkpoint)
    guard let bytes = try fileSystem.readWholeFile(path) else { return 0 }
    do throws(StoreError) {
      return try JournalCheckpoint.decode(bytes, path: path).lowWater
    } catch {
      events.emit(
        EventCatalog.journalCorruptionDetected, .error,
        [("path", path), ("offset", "0"), ("length", String(bytes.count))])
      guard options.salvage else {
        var refused = error
        refused.cause = JournalDamage(path: path, offset: 0, length: UInt64(bytes.count))
        throw refused
      }
      let aside = try quarantinePath(of: JournalFileNames.checkpoint, offset: 0)
      try fileSystem.rename(path, to: aside)
      changed = true
      events.emit(
        EventCatalog.journalSalvaged, .error,
        [
          ("path", path), ("quarantinedAs", aside), ("damagedBytes", String(bytes.count)),
          ("keptRecords", "0"),
        ])
      return 0
    }
  }

  /// The segments in order; where a `.zst` and a `.log` of one segment both exist, the `.zst`
  /// wins if it checks (its rename happened only after it was durable).
  private func pairSegments(
    names: [String], report: inout JournalRecovery, changed: inout Bool
  ) throws(StoreError) -> [JournalCore.Sealed] {
    var logs: [UInt64: String] = [:]
    var compressed: [UInt64: String] = [:]
    for name in names {
      guard let parsed = JournalFileNames.parseSegment(name) else { continue }
      if parsed.kind == .log { logs[parsed.first] = name } else { compressed[parsed.first] = name }
    }
    var segments: [JournalCore.Sealed] = []
    for first in Set(logs.keys).union(compressed.keys).sorted() {
      if let zst = compressed[first], let log = logs[first] {
        let segment = JournalCore.Sealed(first: first, kind: .compressed, name: zst)
        if (try? readAllCompressed(segment)) != nil {
          try fileSystem.remove(Path.join(directory, log))
          segments.append(segment)
        } else {
          let path = Path.join(directory, zst)
          let aside = try quarantinePath(of: zst, offset: 0)
          try fileSystem.rename(path, to: aside)
          events.emit(
            EventCatalog.journalCorruptionDetected, .error,
            [("path", path), ("offset", "0"), ("length", "0")])
          report.quarantinedFiles.append(aside)
          segments.append(JournalCore.Sealed(first: first, kind: .log, name: log))
        }
        changed = true
      } else if let zst = compressed[first] {
        segments.append(JournalCore.Sealed(first: first, kind: .compressed, name: zst))
      } else if let log = logs[first] {
        segments.append(JournalCore.Sealed(first: first, kind: .log, name: log))
      }
    }
    return segments
  }

  private func readAllCompressed(_ segment: JournalCore.Sealed) throws(StoreError) -> (
    lastSequence: UInt64, peak: Int, records: Int
  ) {
    let path = Path.join(directory, segment.name)
    let handle = try fileSystem.open(path, .readOnly)
    defer { try? fileSystem.close(handle) }
    var reader = JournalCompressedReader(
      reader: JournalWindowReader(
        fileSystem: fileSystem, handle: handle, fileSize: try fileSystem.size(handle),
        window: options.readWindow),
      path: path, segmentFirst: segment.first, previousSequence: segment.first - 1,
      maxRecordSize: options.maxRecordSize)
    while try reader.next() != nil {}
    return (reader.previousSequence, reader.peakBytes, Int(reader.records))
  }

  /// Checks a sealed compressed segment's header and trailer only. Its blocks are not read:
  /// the `.zst` was renamed into place only after it was durable, and every block is checked
  /// by its CRC when a reader reaches it (a damaged block is refused then, with
  /// ``StoreError/Code/corrupt``). So open costs the active segment, not the backlog.
  private func checkCompressedEnds(_ segment: JournalCore.Sealed) throws(StoreError) -> (
    lastSequence: UInt64, peak: Int, records: Int
  ) {
    let path = Path.join(directory, segment.name)
    func corrupt(_ why: String, at offset: UInt64) -> StoreError {
      StoreError(
        .corrupt, "compressed journal segment is damaged at offset \(offset): \(why)",
        path: path, cause: JournalDamage(path: path, offset: offset, length: 0))
    }
    let handle = try fileSystem.open(path, .readOnly)
    defer { try? fileSystem.close(handle) }
    let size = try fileSystem.size(handle)
    let headerSize = JournalCompressedSegment.headerSize
    let trailerSize = JournalCompressedSegment.blockHeaderSize + 16
    guard size >= UInt64(headerSize + trailerSize) else {
      throw corrupt("the segment ends without its trailer", at: 0)
    }
    let header = try fileSystem.read(handle, count: headerSize, at: 0)
    guard header.count == headerSize,
      Array(header[0..<4]) == JournalCompressedSegment.magic,
      CRC32C.checksum(Array(header[0..<16])) == JournalFrame.loadLE32(header, 16)
    else { throw corrupt("bad segment header", at: 0) }
    guard header[4] == JournalCompressedSegment.version else {
      throw corrupt(
        "unsupported format version \(header[4]) (this reader reads version "
          + "\(JournalCompressedSegment.version))", at: 4)
    }
    guard JournalFrame.loadLE64(header, 8) == segment.first else {
      throw corrupt("the header names another segment", at: 8)
    }
    let trailerOffset = size - UInt64(trailerSize)
    let trailer = try fileSystem.read(handle, count: trailerSize, at: trailerOffset)
    let blockHeader = JournalCompressedSegment.blockHeaderSize
    guard trailer.count == trailerSize,
      trailer[0] == JournalCompressedSegment.kindTrailer,
      JournalFrame.loadLE32(trailer, 4) == 16, JournalFrame.loadLE32(trailer, 8) == 16,
      CRC32C.checksum(
        Array(trailer[blockHeader...]), continuing: CRC32C.checksum(Array(trailer[0..<12])))
        == JournalFrame.loadLE32(trailer, 12)
    else { throw corrupt("trailer checksum mismatch", at: trailerOffset) }
    let records = JournalFrame.loadLE64(trailer, blockHeader)
    let lastSequence = JournalFrame.loadLE64(trailer, blockHeader + 8)
    guard records <= UInt64(Int.max), lastSequence <= JournalFrame.maximumSequence else {
      throw corrupt("trailer values out of range", at: trailerOffset)
    }
    return (lastSequence, headerSize + trailerSize, Int(records))
  }

  /// Checks a compressed segment; a damaged one is refused, or quarantined whole by salvage
  /// (then `lastSequence` is `nil`).
  private func verifyCompressed(
    _ segment: JournalCore.Sealed, previous: UInt64, report: inout JournalRecovery
  ) throws(StoreError) -> (lastSequence: UInt64?, peak: Int, records: Int) {
    do throws(StoreError) {
      guard segment.first > previous else {
        let path = Path.join(directory, segment.name)
        throw StoreError(
          .corrupt, "compressed segment overlaps the sequences before it", path: path,
          cause: JournalDamage(path: path, offset: 0, length: 0))
      }
      let outcome = try checkCompressedEnds(segment)
      guard outcome.records == 0 || outcome.lastSequence >= segment.first else {
        let path = Path.join(directory, segment.name)
        throw StoreError(
          .corrupt, "compressed segment trailer claims sequences before the segment",
          path: path, cause: JournalDamage(path: path, offset: 0, length: 0))
      }
      return (max(outcome.lastSequence, segment.first - 1), outcome.peak, outcome.records)
    } catch {
      let path = Path.join(directory, segment.name)
      let size = ((try? fileSystem.fileSize(path)) ?? nil) ?? 0
      events.emit(
        EventCatalog.journalCorruptionDetected, .error,
        [("path", path), ("offset", "0"), ("length", String(size))])
      guard options.salvage, error.code == .corrupt else { throw error }
      let aside = try quarantinePath(of: segment.name, offset: 0)
      try fileSystem.rename(path, to: aside)
      try fileSystem.syncDirectory(directory)
      report.quarantinedFiles.append(aside)
      report.quarantinedBytes += size
      events.emit(
        EventCatalog.journalSalvaged, .error,
        [
          ("path", path), ("quarantinedAs", aside), ("damagedBytes", String(size)),
          ("keptRecords", "0"),
        ])
      return (nil, 0, 0)
    }
  }

  /// A quarantine path for damaged bytes of `name` at `offset` that no earlier quarantine
  /// uses: quarantined data is never replaced or deleted.
  func quarantinePath(of name: String, offset: UInt64) throws(StoreError) -> String {
    let base = Path.join(directory, JournalFileNames.quarantine(of: name, offset: offset))
    var candidate = base
    var number = 1
    while try fileSystem.exists(candidate) {
      candidate = base + "-\(number)"
      number += 1
    }
    return candidate
  }
}
