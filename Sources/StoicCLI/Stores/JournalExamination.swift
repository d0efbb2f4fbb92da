import StoicCollector
import StoicStore

/// What the library itself finds in a journal's directory: the tool runs `Journal`'s own
/// open and recovery over an ``OverlayFileSystem`` (so nothing on the disk changes and the
/// lock is not taken), then reads every record through it (each frame's and each compressed
/// block's checksum checked), and turns what the library reported into ``Finding``s:
///
/// - open refuses with `StoreError/Code/corrupt`: damage inside durable data (the refusal
///   names the file, offset and length). To find every damaged range, not only the first,
///   open is run again with `JournalOptions/salvage` on a fresh overlay: each damage it
///   salvages is reported by `store.journal_corruption_detected`.
/// - `store.journal_truncated`: a torn tail, which the next open cuts (not damage).
/// - a read that throws `StoreError/Code/corrupt`: a damaged segment (a compressed block
///   whose checksum fails, say); the read goes on from the next segment.
struct JournalExamination {
  /// A segment of the journal and what reading it found.
  struct Segment {
    /// The file.
    var file: StoreFile
    /// The first sequence its name says it may hold.
    var first: UInt64
    /// Whether it is a compressed `.zst` segment.
    var compressed: Bool
    /// What it is after the library's open.
    var state: State
    /// Records read from it.
    var records = 0
    /// The first and last sequences read from it.
    var sequences: ClosedRange<UInt64>?
    /// The earliest and latest times of its records, for a log spool's journal (nanoseconds
    /// since 1970, from the records' headers).
    var times: ClosedRange<Int64>?
  }

  /// What a segment is after the library's open.
  enum State: String {
    /// The segment appends go to.
    case active
    /// Sealed, plain frames (compression pending).
    case sealed
    /// Sealed and compressed.
    case compressed
    /// Holds damage the library refuses.
    case damaged
    /// Removed by the next open (covered by the checkpoint, a `.log` whose `.zst` is in place,
    /// or an active segment that held nothing durable).
    case removedAtOpen = "removed at open"
    /// Not read: the journal could not be opened, even by a salvage.
    case unread = "not read"
  }

  /// The journal's directory.
  let directory: String
  /// The directory's own status.
  var directoryStatus: FileStatus?
  /// Every file in the directory.
  var files: [StoreFile] = []
  /// The segments, in order.
  var segments: [Segment] = []
  /// Records read.
  var records = 0
  /// The first and last sequences read.
  var sequences: ClosedRange<UInt64>?
  /// The last sequence handed out (0 for an empty journal).
  var lastSequence: UInt64 = 0
  /// Records at or below it were dropped.
  var lowWaterMark: UInt64 = 0
  /// The snapshot's sequence and size, if one is stored.
  var snapshot: (sequence: UInt64, bytes: Int)?
  /// What was found.
  var findings: [Finding] = []
  /// What the library's next open would change, in words.
  var changes: [String] = []
  /// Why the library's open refused the journal, if it did.
  var refusal: String?
  /// An error that kept the tool from reading (not damage): a permission, an I/O error.
  var failure: StoreError?
  /// The first bytes of the first record read (to tell an outbox).
  var firstRecordPrefix: [UInt8] = []
  /// Whether the first record read is a whole collector entry (to tell a collector's store).
  var firstRecordIsCollectorEntry = false
  /// The first bytes of the snapshot (to tell an outbox).
  var snapshotPrefix: [UInt8] = []

  /// Examines the journal in `directory`.
  ///
  /// - Parameters:
  ///   - maxRecordSize: The largest record the journal's writer allows (a frame claiming more
  ///     is invalid, as the library's open with that option would find).
  ///   - progress: Shows the records read so far.
  static func run(directory: String, maxRecordSize: Int, progress: ProgressLine)
    -> JournalExamination
  {
    var examination = JournalExamination(directory: directory)
    do throws(StoreError) {
      examination.directoryStatus = try FileStatus.of(directory)
      examination.files = try StoreFile.list(directory, role: StoreFile.journalRole)
      try examination.examine(maxRecordSize: maxRecordSize, progress: progress)
    } catch {
      examination.failure = error
    }
    return examination
  }

  /// The options the tool opens journals with: nothing compressed or sealed in the
  /// background, records up to `maxRecordSize`.
  static func options(maxRecordSize: Int, salvage: Bool) -> JournalOptions {
    JournalOptions(
      maxRecordSize: maxRecordSize, compressSealedSegments: false, salvage: salvage,
      backgroundMaintenance: false, mappedAppends: false)
  }

  /// Whether the damage found is what the library refuses: `verify` exits 1.
  var damaged: Bool { findings.contains { $0.severity == .damage } }

  /// Whether the journal is the example collector's store, by ``JournalContent``'s rule.
  var looksLikeCollector: Bool {
    JournalContent.isCollector(
      hasSnapshot: snapshot != nil, firstRecordIsCollectorEntry: firstRecordIsCollectorEntry)
  }

  /// Whether the journal holds an outbox, by ``JournalContent``'s rule.
  var looksLikeOutbox: Bool {
    JournalContent.isOutbox(snapshotPrefix: snapshotPrefix, firstRecordPrefix: firstRecordPrefix)
  }

  private mutating func examine(maxRecordSize: Int, progress: ProgressLine) throws(StoreError) {
    let log = EventLog()
    let overlay = OverlayFileSystem()
    var journal: Journal?
    var reader = overlay
    do throws(StoreError) {
      journal = try Journal.open(
        directory: directory, fileSystem: overlay,
        options: Self.options(maxRecordSize: maxRecordSize, salvage: false), events: log.sink)
    } catch {
      guard error.code == .corrupt || error.code == .unsupported else { throw error }
      refusal = error.message
      addDamage(error)
      addDamage(events: log)
      // Salvage on a fresh overlay finds the damage after the first, and opens what is left.
      let salvaged = EventLog()
      reader = OverlayFileSystem()
      do throws(StoreError) {
        journal = try Journal.open(
          directory: directory, fileSystem: reader,
          options: Self.options(maxRecordSize: maxRecordSize, salvage: true), events: salvaged.sink)
      } catch {
        guard error.code == .corrupt || error.code == .unsupported else { throw error }
        addDamage(error)
      }
      addDamage(events: salvaged)
    }
    for event in log.named(StoreEvents.journalTruncated) {
      let valid = UInt64(event["validBytes"] ?? "") ?? 0
      let dropped = UInt64(event["droppedBytes"] ?? "") ?? 0
      let zeros = UInt64(event["zeroBytes"] ?? "") ?? 0
      let (cut, overflow) = dropped.addingReportingOverflow(zeros)
      findings.append(
        Finding(
          .warning, .tornTail, file: event["path"], offset: valid,
          length: overflow ? UInt64.max : cut,
          "torn tail: \(dropped) bytes after offset \(valid) were never acknowledged as durable "
            + "(a crash in the middle of an append)"
            + (zeros > 0 ? ", then \(zeros) preallocated zeros that never held data" : "")
            + "; the next open cuts them, and no acknowledged record is lost"))
    }
    for event in log.named(StoreEvents.journalSegmentOversized) {
      let bytes = event["bytes"] ?? "?"
      let segmentSize = event["segmentSize"] ?? "?"
      findings.append(
        Finding(
          .warning, .oversizedSegment, file: event["path"],
          "segment of \(bytes) bytes, far larger than the journal's segments grow "
            + "(segment size \(segmentSize) bytes): not written by this journal's appends as "
            + "configured (a file copied in or named like a segment?); read as usual"))
    }
    if let journal, journal.recovery.removedCoveredSegments > 0 {
      findings.append(
        Finding(
          .note, .recovery,
          "\(journal.recovery.removedCoveredSegments) segments already covered by the checkpoint "
            + "(an interrupted drop): the next open removes them"))
    }
    changes = overlay.changes
    findings += StoreFile.findings(files, directory: nil, permissions: false)
    guard let journal else {
      describeSegments(opened: nil, counts: [:])
      return
    }
    defer { try? journal.close() }
    lastSequence = journal.lastSequence
    lowWaterMark = journal.lowWaterMark
    do throws(StoreError) {
      if let stored = try journal.snapshot() {
        snapshot = (stored.sequence, stored.bytes.count)
        snapshotPrefix = Array(stored.bytes.prefix(8))
      }
    } catch {
      guard error.code == .corrupt else { throw error }
      addDamage(error)
    }
    try readRecords(journal, through: reader, progress: progress)
  }

  /// Reads every record; after a damaged segment, goes on from the next one.
  private mutating func readRecords(
    _ journal: Journal, through reader: OverlayFileSystem, progress: ProgressLine
  ) throws(StoreError) {
    let opened = try reader.list(directory).compactMap { name -> (UInt64, String)? in
      JournalFileNames.parseSegment(name).map { ($0.first, name) }
    }.sorted { $0.0 < $1.0 }
    var counts: [UInt64: (records: Int, range: ClosedRange<UInt64>)] = [:]
    var from: UInt64 = 0
    var index = 0
    let label = StorePath.name(of: directory)
    while true {
      do throws(StoreError) {
        try journal.forEachRecordBorrowing(from: from) {
          (sequence, payload) throws(StoreError) in
          while index + 1 < opened.count, opened[index + 1].0 <= sequence { index += 1 }
          let first = opened.isEmpty ? 0 : opened[index].0
          if let known = counts[first] {
            counts[first] = (known.records + 1, known.range.lowerBound...sequence)
          } else {
            counts[first] = (1, sequence...sequence)
          }
          if records == 0 {
            firstRecordPrefix = Array(UnsafeRawBufferPointer(rebasing: payload.prefix(8)))
            firstRecordIsCollectorEntry = CollectorEntry.decode(payload, withBody: false) != nil
          }
          records += 1
          sequences = (sequences?.lowerBound ?? sequence)...sequence
          if records & 1023 == 0 {
            let name = opened.isEmpty ? "" : opened[index].1
            progress.update("\(label): \(records) records read, \(name)")
          }
        }
        break
      } catch {
        guard error.code == .corrupt else { throw error }
        addDamage(error)
        let damagedFirst = (error.path ?? (error.cause as? JournalDamage)?.path).flatMap {
          JournalFileNames.parseSegment(StorePath.name(of: $0))?.first
        }
        guard let damagedFirst, let next = opened.first(where: { $0.0 > damagedFirst })?.0,
          next > from
        else { break }
        from = next
      }
    }
    progress.clear()
    describeSegments(opened: opened.map(\.1), counts: counts)
  }

  /// The real segments, each with what the open made of it (`opened`: the segments after it,
  /// `nil` when it failed) and the records read from it.
  private mutating func describeSegments(
    opened: [String]?, counts: [UInt64: (records: Int, range: ClosedRange<UInt64>)]
  ) {
    let damagedFiles = Set(findings.filter { $0.severity == .damage }.compactMap(\.file))
    let active = opened?.last.flatMap { $0.hasSuffix(".log") ? $0 : nil }
    segments = files.compactMap { file -> Segment? in
      guard let parsed = JournalFileNames.parseSegment(file.name) else { return nil }
      let compressed = parsed.kind == .compressed
      var segment = Segment(
        file: file, first: parsed.first, compressed: compressed, state: .removedAtOpen)
      if damagedFiles.contains(file.path) {
        segment.state = .damaged
      } else if opened == nil {
        segment.state = .unread
      } else if opened?.contains(file.name) == true {
        segment.state = compressed ? .compressed : file.name == active ? .active : .sealed
      }
      if segment.state != .removedAtOpen, let count = counts[parsed.first] {
        segment.records = count.records
        segment.sequences = count.range
      }
      return segment
    }.sorted { $0.first < $1.first }
  }

  /// Adds the damage a refusal or a failed read names.
  private mutating func addDamage(_ error: StoreError) {
    let place = error.cause as? JournalDamage
    add(
      Finding(
        .damage, .damage, file: place?.path ?? error.path, offset: place?.offset,
        length: place.flatMap { $0.length == 0 ? nil : $0.length }, error.message))
  }

  /// Adds the damage `store.journal_corruption_detected` reported.
  private mutating func addDamage(events log: EventLog) {
    for event in log.named(StoreEvents.journalCorruptionDetected) {
      let offset = UInt64(event["offset"] ?? "") ?? 0
      let length = UInt64(event["length"] ?? "") ?? 0
      add(
        Finding(
          .damage, .damage, file: event["path"], offset: offset, length: length,
          "damaged inside durable data: \(length) bytes at offset \(offset)"))
    }
  }

  /// Adds `finding` unless a finding on the same file at the same offset (or one on the same
  /// file, for a report at offset 0 of a file refused whole) is there already.
  private mutating func add(_ finding: Finding) {
    let duplicate = findings.contains { known in
      known.severity == .damage && known.file == finding.file
        && (known.offset == finding.offset || finding.offset == 0 || finding.offset == nil)
    }
    if !duplicate { findings.append(finding) }
  }
}
