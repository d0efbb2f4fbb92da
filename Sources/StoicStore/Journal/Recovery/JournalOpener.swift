/// Opens a journal directory: takes the lock and applies the recovery rules described on
/// ``Journal``.
struct JournalOpener {
  /// What a compressed segment's name records of it.
  typealias Summary = JournalFileNames.CompressedSummary

  /// A segment the directory holds, with what its name records (a compressed one's).
  struct Listed {
    var segment: JournalCore.Sealed
    var summary: Summary? = nil
  }

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
    let lockPath = StorePath.join(directory, JournalFileNames.lock)
    // The directory is made (durably) only when the lock file cannot be opened for want of it:
    // an existing journal's open reads its directory once, in the recovery below.
    let lockHandle: StoreFileHandle
    do throws(StoreError) {
      lockHandle = try fileSystem.open(lockPath, .createOrOpen)
    } catch {
      guard error.code == .notFound else { throw error }
      try fileSystem.createDirectoryDurably(directory)
      lockHandle = try fileSystem.open(lockPath, .createOrOpen)
    }
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

  /// A segment open has placed, with where its records end (its last record, or its first
  /// sequence - 1 if it holds none) and how many it holds.
  struct Placed {
    var segment: JournalCore.Sealed
    var end: UInt64
    var records: Int
    /// For a `.log`: how its scan ended, and whether it was scanned as an active segment is
    /// (its torn tail left to cut) or as a sealed one.
    var scan: LogScan? = nil
    var scannedAsActive = false
    /// Records before it are missing (@J): it is marked durably when placed
    /// (`markAfterMissing`), or, if its scan stopped short of the end of the file, when it
    /// becomes the active segment.
    var afterMissing = false
  }

  private func recover(report: inout JournalRecovery) throws(StoreError) -> JournalCore {
    var directoryChanged = false
    let names = try fileSystem.list(directory)
    for name in names where name.hasSuffix(JournalFileNames.temporarySuffix) {
      try fileSystem.remove(StorePath.join(directory, name))
      directoryChanged = true
    }
    var checkpoint = try readCheckpoint(names: names, changed: &directoryChanged)
    var segments = try pairSegments(names: names, report: &report, changed: &directoryChanged)
    // Finish an interrupted drop: sealed segments wholly at or below the low-water mark.
    let lowWaterAtOpen = checkpoint?.lowWater ?? 0
    while segments.count > 1, segments[1].segment.first - 1 <= lowWaterAtOpen {
      try fileSystem.remove(StorePath.join(directory, segments[0].segment.name))
      segments.removeFirst()
      report.removedCoveredSegments += 1
      directoryChanged = true
    }
    if directoryChanged { try fileSystem.syncDirectory(directory) }

    // A compressed segment's end, records and size come from its name, or (a name of the
    // earlier form) from its header and trailer, checked first: one that fails is refused, or
    // set aside by salvage, before any segment is placed.
    var windowPeak = 0
    // Each segment to place, a compressed one with where its records end and how many it holds
    // (a `.log`'s are found by its scan when it is placed).
    struct Live {
      var segment: JournalCore.Sealed
      var holds: (end: UInt64, records: Int)?
    }
    var live: [Live] = []
    for listed in segments {
      var segment = listed.segment
      guard segment.kind == .compressed else {
        live.append(Live(segment: segment))
        continue
      }
      guard let outcome = try verifyCompressed(segment, summary: listed.summary, report: &report)
      else { continue }
      windowPeak = max(windowPeak, outcome.peak)
      segment.bytes = outcome.bytes
      live.append(Live(segment: segment, holds: (outcome.end, outcome.records)))
    }

    // Every segment but the active one (the last, if it is a `.log`) is placed in order, then
    // the active one after them (see JournalSegmentRules).
    let candidate = live.last?.segment.kind == .log ? live.removeLast().segment : nil
    var placed: [Placed] = []
    for (index, entry) in live.enumerated() {
      let segment = entry.segment
      let previous = placed.last
      let situation = JournalSegmentRules.Situation(
        placement: JournalSegmentRules.place(
          first: segment.first, after: previous?.end, lowWater: checkpoint?.lowWater ?? 0),
        isFirst: previous == nil, followsUnsealed: false, holdsMarker: false,
        salvage: options.salvage)
      let rule = JournalSegmentRules.decide(situation)
      guard
        try apply(
          rule, to: segment, in: situation, after: previous, checkpoint: &checkpoint,
          report: &report)
      else { continue }
      let afterMissing = rule.decision == .acceptMissing
      if let holds = entry.holds {
        placed.append(
          Placed(
            segment: segment, end: holds.end, records: holds.records, afterMissing: afterMissing))
      } else {
        // The segment a roll replaced (the last before the active one): its seal may not have
        // been made, so it is scanned as the active one is; placing the active segment
        // settles it.
        let replaced = candidate != nil && index == live.count - 1
        var scan = try scanLogRepairing(
          segment.first, name: segment.name, previous: segment.first - 1, isActive: replaced,
          report: &report, peak: &windowPeak)
        if afterMissing { try markAfterMissing(segment, scan: &scan) }
        placed.append(
          Placed(
            segment: segment, end: scan.lastSequence, records: scan.records, scan: scan,
            scannedAsActive: replaced, afterMissing: afterMissing))
      }
    }
    var activeSegment: JournalCore.Sealed?
    var activeAfterMissing = false
    if let candidate {
      (activeSegment, activeAfterMissing) = try placeActive(
        candidate, after: &placed, checkpoint: &checkpoint, report: &report, peak: &windowPeak)
    }
    if activeSegment == nil {
      try clearNameForActive(&placed, lowWater: checkpoint?.lowWater ?? 0, report: &report)
      if let last = activeAtSequenceLimit(&placed, lowWater: checkpoint?.lowWater ?? 0) {
        (activeSegment, activeAfterMissing) = (last.segment, last.afterMissing)
      }
    }

    let lowWater = checkpoint?.lowWater ?? 0
    var core = JournalCore()
    core.groupCommit = JournalGroupCommit(durableSequence: 0, policy: options.syncPolicy)
    core.mappingEnabled = options.mappedAppends
    core.lowWater = lowWater
    core.sealed = placed.map(\.segment)
    report.records += placed.reduce(0) { $0 + $1.records }
    for segment in placed {
      if let scan = segment.scan { reportIfOversized(segment.segment.name, scan) }
    }
    let sealedEnd = placed.last?.end ?? 0
    var lastSequence = max(sealedEnd, lowWater)
    var marked = false
    if let activeSegment {
      let first = activeSegment.first
      let name = activeSegment.name
      let scan = try scanLogRepairing(
        first, name: name, previous: first - 1, isActive: true, report: &report,
        peak: &windowPeak)
      report.records += scan.records
      reportIfOversized(name, scan)
      var end = scan.validEnd
      marked = scan.endsDurablyMarked
      let handle = try fileSystem.open(StorePath.join(directory, name), .readWrite)
      do throws(StoreError) {
        if let damage = scan.damage {
          end = try cutTornTail(handle, name: name, scan: scan, damage: damage, report: &report)
        }
        // What was found is made durable before it is claimed durable, unless its last frame
        // is a marker that already claims all of it (a marker is written only after the sync
        // it describes returned): reopening a closed journal then writes nothing.
        if !marked || activeAfterMissing { try fileSystem.sync(handle) }
        if activeAfterMissing && !marked {
          // Records before this segment are missing, so only a durable marker in it keeps a
          // later open from taking it for the segment after a torn seal (@F), which would
          // remove what is appended to it from now on.
          end = try writeDurableMarker(
            handle, through: scan.lastSequence, at: end, segmentFirst: first)
          marked = true
        }
      } catch {
        try? fileSystem.close(handle)
        throw error
      }
      core.active = JournalCore.Active(
        first: first, name: name, path: StorePath.join(directory, name), handle: handle, end: end,
        syncedEnd: end)
      lastSequence = max(scan.lastSequence, lowWater)
    } else if lastSequence < JournalFrame.maximumSequence {
      // @N: no active segment is left: one is made after the last record.
      let first = lastSequence + 1
      let name = JournalFileNames.segment(first: first, kind: .log)
      assert(
        placed.allSatisfy { $0.segment.first < first }, "the new active segment's name is taken")
      let handle = try fileSystem.open(StorePath.join(directory, name), .createExclusive)
      do throws(StoreError) {
        try fileSystem.sync(handle)
        if !options.mutations.contains(.noDirectorySyncOnCreate) {
          try fileSystem.syncDirectory(directory)
        }
      } catch {
        try? fileSystem.close(handle)
        throw error
      }
      core.active = JournalCore.Active(
        first: first, name: name, path: StorePath.join(directory, name), handle: handle, end: 0,
        syncedEnd: 0)
    }
    // @O: otherwise every sequence is used and no segment is left to be active (see
    // `activeAtSequenceLimit`): the journal opens for reading, and appends are refused with
    // sequenceLimitReached.
    core.lastSequence = lastSequence
    core.durableSequence = lastSequence
    let activeFirst = core.active?.first ?? (lastSequence + 1)
    core.markedSequence = marked ? lastSequence : activeFirst - 1
    report.peakBufferBytes = windowPeak
    assert(core.checkLayout(), "open left segments that break the journal's layout rules")
    return core
  }

  /// Reports ``StoreEvents/journalSegmentOversized`` for the `.log` segment `name` if its scan
  /// found it more than twice as large as a segment of this journal grows: its
  /// ``JournalOptions/segmentSize`` plus the largest record frame.
  private func reportIfOversized(_ name: String, _ scan: LogScan) {
    let largest = options.segmentSize.addingReportingOverflow(
      UInt64(JournalFrame.recordSize(payloadCount: options.maxRecordSize)))
    let (limit, overflow) = largest.partialValue.multipliedReportingOverflow(by: 2)
    guard !largest.overflow, !overflow, scan.fileSize > limit else { return }
    events.emit(
      StoreEvents.journalSegmentOversized,
      [
        ("path", StorePath.join(directory, name)), ("bytes", String(scan.fileSize)),
        ("segmentSize", String(options.segmentSize)),
      ])
  }

  /// Cuts the torn tail at `damage.offset` (truncate, then sync), or with the
  /// `noTailTruncation` mutation leaves it and continues after it. Returns the new end.
  func cutTornTail(
    _ handle: StoreFileHandle, name: String, scan: LogScan,
    damage: (offset: UInt64, length: UInt64, durable: Bool), report: inout JournalRecovery
  ) throws(StoreError) -> UInt64 {
    if options.mutations.contains(.noTailTruncation) { return scan.fileSize }
    let zerosFrom = try zeroRunStart(handle, from: damage.offset, to: scan.fileSize)
    try fileSystem.truncate(handle, to: damage.offset)
    try fileSystem.sync(handle)
    report.truncatedBytes += scan.fileSize - damage.offset
    reportCut(
      path: StorePath.join(directory, name), validBytes: damage.offset,
      dropped: zerosFrom - damage.offset, zeros: scan.fileSize - zerosFrom)
    return damage.offset
  }

  /// Where the run of zeros that ends the range `start ..< end` begins (`end` when its last
  /// byte is not zero): read backwards, a window at a time, each compared with zeros by
  /// ``JournalSegmentScanner/lastNonZero(in:)``, so a long preallocated tail costs a read of its
  /// zeros at memory speed and nothing more.
  func zeroRunStart(_ handle: StoreFileHandle, from start: UInt64, to end: UInt64)
    throws(StoreError) -> UInt64
  {
    var position = end
    while position > start {
      let count = min(64 << 10, position - start)
      let chunk = try fileSystem.read(handle, count: Int(count), at: position - count)
      guard chunk.count == Int(count) else { return position }
      if let last = chunk.withUnsafeBytes({ JournalSegmentScanner.lastNonZero(in: $0) }) {
        return position - count + UInt64(last) + 1
      }
      position -= count
    }
    return start
  }

  /// The checkpoint (`nil` if there is none); a damaged one is refused, or set aside by
  /// salvage.
  private func readCheckpoint(names: [String], changed: inout Bool) throws(StoreError)
    -> JournalCheckpoint?
  {
    guard names.contains(JournalFileNames.checkpoint) else { return nil }
    let path = StorePath.join(directory, JournalFileNames.checkpoint)
    guard let bytes = try fileSystem.readWholeFile(path) else { return nil }
    do throws(StoreError) {
      return try JournalCheckpoint.decode(bytes, path: path)
    } catch {
      events.emit(
        StoreEvents.journalCorruptionDetected,
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
        StoreEvents.journalSalvaged,
        [
          ("path", path), ("quarantinedAs", aside), ("damagedBytes", String(bytes.count)),
          ("keptRecords", "0"),
        ])
      return nil
    }
  }

  /// The segments in order, one per first sequence.
  ///
  /// Where a `.zst` and a `.log` name the same first sequence, compression stopped between
  /// renaming the `.zst` into place (after it was durable) and removing the `.log`:
  /// - @K: the `.zst` reads whole and holds exactly the records of the `.log`, which is
  ///   undamaged: the `.log` is removed, as compression would have.
  /// - @L: the `.zst` reads whole and holds more (or the `.log` is damaged after the same
  ///   records): the `.log` is set aside (`<name>.corrupt-0`), the `.zst` kept.
  /// - @M: the `.zst` does not read whole, or holds less: it is set aside, the `.log` kept.
  ///
  /// No record is lost either way, so this needs no salvage; ``JournalRecovery/quarantinedFiles``
  /// lists what was set aside.
  private func pairSegments(
    names: [String], report: inout JournalRecovery, changed: inout Bool
  ) throws(StoreError) -> [Listed] {
    // The segments' names by first sequence, in list order within one (their index in it).
    struct Found {
      var segment: JournalFileNames.Segment
      var index: Int
    }
    var found: [Found] = []
    found.reserveCapacity(names.count)
    for (index, name) in names.enumerated() {
      guard let parsed = JournalFileNames.parseSegment(name) else { continue }
      found.append(Found(segment: parsed, index: index))
    }
    found.sort {
      $0.segment.first != $1.segment.first
        ? $0.segment.first < $1.segment.first : $0.index < $1.index
    }
    // Each first sequence's `.log` and compressed file.
    struct Pair {
      var first: UInt64
      var log: String?
      var compressed: Listed?
    }
    var pairs: [Pair] = []
    var extra: [(index: Int, segment: JournalCore.Sealed)] = []
    var cursor = 0
    while cursor < found.count {
      var pair = Pair(first: found[cursor].segment.first)
      while cursor < found.count, found[cursor].segment.first == pair.first {
        let entry = found[cursor]
        let name = names[entry.index]
        cursor += 1
        let segment = JournalCore.Sealed(first: pair.first, kind: entry.segment.kind, name: name)
        if entry.segment.kind == .log {
          pair.log = name
        } else if let other = pair.compressed {
          // Two compressed files of one first sequence: compression writes one, so the other
          // was put there by hand. The later in name order is set aside, nothing is removed.
          if name < other.segment.name {
            pair.compressed = Listed(segment: segment, summary: entry.segment.summary)
            extra.append((entry.index, other.segment))
          } else {
            extra.append((entry.index, segment))
          }
        } else {
          pair.compressed = Listed(segment: segment, summary: entry.segment.summary)
        }
      }
      pairs.append(pair)
    }
    for (_, segment) in extra.sorted(by: { $0.index < $1.index }) {
      try quarantine(segment, report: &report)
      changed = true
    }
    var segments: [Listed] = []
    segments.reserveCapacity(pairs.count)
    for pair in pairs {
      let first = pair.first
      if let compressed = pair.compressed, let log = pair.log {
        let zstSegment = compressed.segment
        let logSegment = JournalCore.Sealed(first: first, kind: .log, name: log)
        var peak = 0
        let logScan = try scanLog(
          first, name: log, previous: first - 1, isActive: false, peak: &peak)
        let logHolds = (logScan.lastSequence, logScan.records)
        if let zstHolds = try? readAllCompressed(zstSegment),
          (zstHolds.lastSequence, zstHolds.records) >= logHolds
        {
          if (zstHolds.lastSequence, zstHolds.records) == logHolds, logScan.damage == nil {
            try fileSystem.remove(StorePath.join(directory, log))  // @K
          } else {
            try quarantine(logSegment, report: &report)  // @L
          }
          segments.append(compressed)
        } else {
          try quarantine(zstSegment, report: &report)  // @M
          segments.append(Listed(segment: logSegment))
        }
        changed = true
      } else if let compressed = pair.compressed {
        segments.append(compressed)
      } else if let log = pair.log {
        segments.append(Listed(segment: JournalCore.Sealed(first: first, kind: .log, name: log)))
      }
    }
    return segments
  }

  /// Sets a whole segment file aside as `<name>.corrupt-0` (or the next free quarantine name)
  /// and reports it; the directory is synced by the caller.
  @discardableResult
  func quarantine(_ segment: JournalCore.Sealed, report: inout JournalRecovery)
    throws(StoreError) -> (aside: String, size: UInt64)
  {
    let path = StorePath.join(directory, segment.name)
    let size = try fileSystem.fileSize(path) ?? 0
    let aside = try quarantinePath(of: segment.name, offset: 0)
    try fileSystem.rename(path, to: aside)
    events.emit(
      StoreEvents.journalCorruptionDetected,
      [("path", path), ("offset", "0"), ("length", String(size))])
    report.quarantinedFiles.append(aside)
    report.quarantinedBytes += size
    return (aside, size)
  }

  private func readAllCompressed(_ segment: JournalCore.Sealed) throws(StoreError) -> (
    lastSequence: UInt64, peak: Int, records: Int
  ) {
    let path = StorePath.join(directory, segment.name)
    let handle = try fileSystem.open(path, .readOnly)
    defer { try? fileSystem.close(handle) }
    // What its name records, if it records it, is checked as a read checks it; the blocks then
    // against the trailer.
    if let summary = JournalFileNames.parseSegment(segment.name)?.summary {
      _ = try JournalCompressedEnds.check(
        handle, path: path, segmentFirst: segment.first, summary: summary, fileSystem: fileSystem)
    }
    var reader = JournalCompressedReader(
      reader: JournalWindowReader(
        fileSystem: fileSystem, handle: handle, fileSize: try fileSystem.size(handle),
        window: options.readWindow),
      path: path, segmentFirst: segment.first, previousSequence: segment.first - 1,
      maxRecordSize: options.maxRecordSize)
    while try reader.next() != nil {}
    return (reader.previousSequence, reader.peakBytes, Int(reader.records))
  }

  /// Where a compressed segment's records end (its first sequence - 1 if it holds none), how
  /// many it holds and the file's size. A name that records them gives them (`summary`, parsed
  /// from it when the directory was listed), and the file is not touched: the read that
  /// reaches the segment checks them against its trailer and size (and a salvaging journal
  /// sets it aside then, see ``Journal/setAsideDamaged(_:)``), so an open does not grow with
  /// the sealed segments. Otherwise (a name of the earlier form) the
  /// header and trailer are checked; a damaged segment is refused, or set aside whole by
  /// salvage (then `nil`).
  private func verifyCompressed(
    _ segment: JournalCore.Sealed, summary: Summary?, report: inout JournalRecovery
  ) throws(StoreError) -> (end: UInt64, peak: Int, records: Int, bytes: UInt64)? {
    if let summary {
      // A summary's record count is at most its sequences' (below 2^62): it fits an `Int`.
      return (summary.end, 0, Int(summary.records), summary.bytes)
    }
    do throws(StoreError) {
      // Its blocks are not read: the `.zst` was renamed into place only after it was durable,
      // and every block is checked by its CRC when a reader reaches it (a damaged block is
      // refused then, with ``StoreError/Code/corrupt``).
      let path = StorePath.join(directory, segment.name)
      let handle = try fileSystem.open(path, .readOnly)
      defer { try? fileSystem.close(handle) }
      let ends = try JournalCompressedEnds.check(
        handle, path: path, segmentFirst: segment.first, summary: nil, fileSystem: fileSystem)
      // The trailer's decoder bounds its record count by `Int.max`.
      let peak = JournalCompressedSegment.headerSize + JournalCompressedSegment.trailerSize
      return (ends.end(segmentFirst: segment.first), peak, Int(ends.records), ends.bytes)
    } catch {
      guard error.code == .corrupt else { throw error }
      guard options.salvage else { throw refusal(error) }
      try setAside(segment, report: &report)
      return nil
    }
  }

  /// A quarantine path for damaged bytes of `name` at `offset` that no earlier quarantine
  /// uses: quarantined data is never replaced or deleted.
  func quarantinePath(of name: String, offset: UInt64) throws(StoreError) -> String {
    let base = StorePath.join(directory, JournalFileNames.quarantine(of: name, offset: offset))
    var candidate = base
    var number = 1
    while try fileSystem.exists(candidate) {
      candidate = base + "-\(number)"
      number += 1
    }
    return candidate
  }
}

/// What ``Journal/open(directory:fileSystem:options:events:)`` found and repaired.
public struct JournalRecovery: Sendable, Hashable {
  /// Bytes of torn tail cut from the active segment.
  public var truncatedBytes: UInt64 = 0
  /// Damaged durable bytes copied aside by a salvage.
  public var quarantinedBytes: UInt64 = 0
  /// The quarantine files a salvage wrote (paths).
  public var quarantinedFiles: [String] = []
  /// Valid records kept after damaged bytes by a salvage.
  public var salvagedRecords: Int = 0
  /// Segments removed because a checkpoint already covered them (an interrupted drop).
  public var removedCoveredSegments: Int = 0
  /// Records found on disk above the low-water mark.
  public var records: Int = 0
  /// The most bytes the recovery scan held in memory at once; bounded by the read window (or
  /// one frame of the largest record), whatever the journal's size.
  public var peakBufferBytes: Int = 0

  /// An empty report.
  public init() {}
}
