import Testing

@testable import StoicStore
@testable import StoicTesting

/// The rules open applies to a journal's segments (JournalSegmentRules), on the damaged
/// directories that showed open, append and read disagreeing: each is refused, or with salvage
/// set right, and whatever an open accepts the next one accepts too.
@Suite("Journal recovery rules")
struct JournalRecoveryRulesTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  static var salvaging: JournalOptions {
    var options = JournalOptions()
    options.salvage = true
    return options
  }

  @Test("every situation open can meet is in exactly one labelled recovery case")
  func everySituationHasOneCase() {
    let placements: [JournalSegmentRules.Placement] = [
      .contiguous, .overlapping(previousLast: 9), .missing(3...4),
    ]
    var seen: Set<String> = []
    for placement in placements {
      for isFirst in [false, true] {
        for followsUnsealed in [false, true] where !(isFirst && followsUnsealed) {
          for holdsMarker in [false, true] {
            for salvage in [false, true] {
              let situation = JournalSegmentRules.Situation(
                placement: placement, isFirst: isFirst, followsUnsealed: followsUnsealed,
                holdsMarker: holdsMarker, salvage: salvage)
              let matching = JournalSegmentRules.cases.filter { $0.matches(situation) }
              #expect(matching.count == 1, "\(situation): \(matching.map(\.label))")
              seen.formUnion(matching.map(\.label))
            }
          }
        }
      }
    }
    // Every case is reachable, and labels are unique.
    #expect(seen == Set(JournalSegmentRules.cases.map(\.label)))
    #expect(seen.count == JournalSegmentRules.cases.count)
    // Without salvage nothing is set aside and no missing record is accepted.
    for rule in JournalSegmentRules.cases where rule.salvage == false {
      #expect(rule.decision == .refuse, "\(rule.label)")
    }
  }

  @Test("placement: contiguous, overlapping or after missing records, from the low-water mark")
  func placement() {
    typealias Rules = JournalSegmentRules
    #expect(Rules.place(first: 1, after: nil, lowWater: 0) == .contiguous)
    #expect(Rules.place(first: 5, after: nil, lowWater: 9) == .contiguous)
    #expect(Rules.place(first: 11, after: nil, lowWater: 9) == .missing(10...10))
    #expect(Rules.place(first: 7, after: 6, lowWater: 0) == .contiguous)
    #expect(Rules.place(first: 7, after: 3, lowWater: 0) == .missing(4...6))
    #expect(Rules.place(first: 7, after: 7, lowWater: 0) == .overlapping(previousLast: 7))
    // An empty segment ends at its first sequence - 1: whatever follows it leaves a gap.
    #expect(Rules.place(first: 8, after: 6, lowWater: 0) == .missing(7...7))
    // Below the low-water mark nothing is missing.
    #expect(Rules.place(first: 7, after: 3, lowWater: 6) == .contiguous)
  }

  @Test(
    "an empty .zst with no active segment after it is refused, or set aside by salvage; open never names the active segment after it"
  )
  func emptyCompressedSegmentAlone() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.segment(1, .compressed), try DamagedJournal.compressedSegment(first: 1, []))
    let plain = try DamagedJournal.openAppendReopen(disk.copy(), options: JournalOptions())
    let refusal = try #require(plain.refusal)
    #expect(refusal.code == .corrupt)
    #expect((refusal.cause as? JournalDamage)?.path == DamagedJournal.segment(1, .compressed))

    let salvaged = disk.copy()
    #expect(try DamagedJournal.openAppendReopen(salvaged, options: Self.salvaging).records == [])
    #expect(salvaged.allPaths().contains { $0.contains(".zst.corrupt-0") })
    // Set right: an open without salvage accepts it too.
    #expect(try Journal.readable(salvaged) == [1])
  }

  @Test("the .log beside an empty .zst of the same first sequence is kept; the .zst set aside")
  func logBesideEmptyCompressedSegment() throws {
    // What an open used to leave: the active segment made under the name of an empty .zst,
    // holding an acknowledged record.
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.segment(1, .compressed), try DamagedJournal.compressedSegment(first: 1, []))
    disk.setDurableContents(DamagedJournal.segment(1, .log), DamagedJournal.logSegment([1]))
    let outcome = try DamagedJournal.openAppendReopen(disk, options: JournalOptions())
    #expect(outcome.records?.map(\.sequence) == [1])
    #expect(disk.contents(DamagedJournal.segment(1, .compressed) + ".corrupt-0") != nil)
  }

  @Test("a .zst holding more than the .log of the same first sequence wins; the .log is set aside")
  func compressedCopyHoldingMoreWins() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.segment(1, .compressed),
      try DamagedJournal.compressedSegment(first: 1, [1, 2, 3]))
    disk.setDurableContents(DamagedJournal.segment(1, .log), DamagedJournal.logSegment([1, 2]))
    disk.setDurableContents(DamagedJournal.segment(4, .log), DamagedJournal.logSegment([4]))
    let outcome = try DamagedJournal.openAppendReopen(disk, options: JournalOptions())
    #expect(outcome.records?.map(\.sequence) == [1, 2, 3, 4])
    // Set aside, not deleted.
    #expect(disk.contents(DamagedJournal.segment(1, .log) + ".corrupt-0") != nil)
  }

  @Test(
    "salvage: an empty .log before a damaged .zst is placed once, never sealed and active at once"
  )
  func emptyLogBeforeDamagedCompressedSegment() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(DamagedJournal.segment(3, .log), [])
    disk.setDurableContents(
      DamagedJournal.segment(4_000_000_000_000_000, .compressed), [UInt8](repeating: 7, count: 64)
    )
    #expect(
      try DamagedJournal.openAppendReopen(disk.copy(), options: JournalOptions()).refusal?.code
        == .corrupt)
    let outcome = try DamagedJournal.openAppendReopen(disk, options: Self.salvaging)
    #expect(outcome.records == [])
    // Records 1 and 2 are missing before the only segment: the low-water mark now says so,
    // and an open without salvage accepts the journal.
    #expect(try Journal.readable(disk) == [3])
  }

  @Test("a gap between segments is refused at the first open, not after a clean close")
  func gapBetweenSegments() throws {
    let disk = SimulatedFileSystem()
    for first: UInt64 in [1, 7, 20] {
      disk.setDurableContents(DamagedJournal.segment(first, .log), [])
    }
    let plain = try DamagedJournal.openAppendReopen(disk.copy(), options: JournalOptions())
    let refusal = try #require(plain.refusal)
    #expect(refusal.code == .corrupt)
    #expect(refusal.message.contains("records 1...6 are missing"))
    // With salvage, the gap is accepted and reported at every open, and nothing is lost.
    let events = JournalEventLog()
    let salvaged = disk.copy()
    let journal = try Journal.open(
      directory: directory, fileSystem: salvaged, options: Self.salvaging, events: events.sink)
    try journal.close()
    #expect(!events.named(StoreEvents.journalSalvaged).isEmpty)
    #expect(try DamagedJournal.openAppendReopen(salvaged, options: Self.salvaging).records == [])
  }

  @Test("a .log starting at or below the last record before it is refused, as a .zst is")
  func overlappingLog() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.path(JournalFileNames.checkpoint), DamagedJournal.checkpoint(lowWater: 3))
    disk.setDurableContents(
      DamagedJournal.segment(4, .compressed),
      try DamagedJournal.compressedSegment(first: 4, [4, 5])
    )
    disk.setDurableContents(DamagedJournal.segment(5, .log), [])
    let plain = try DamagedJournal.openAppendReopen(disk.copy(), options: JournalOptions())
    let refusal = try #require(plain.refusal)
    #expect(refusal.code == .corrupt)
    #expect((refusal.cause as? JournalDamage)?.path == DamagedJournal.segment(5, .log))
    // With salvage the later file is set aside, and every read agrees with a whole read.
    let salvaged = disk.copy()
    let outcome = try DamagedJournal.openAppendReopen(salvaged, options: Self.salvaging)
    #expect(outcome.records?.map(\.sequence) == [4, 5])
    #expect(salvaged.contents(DamagedJournal.segment(5, .log) + ".corrupt-0") == [])
    #expect(try Journal.readable(salvaged) == [4, 5, 6])
  }

  @Test("the journal's own compression never meets an overlap: a read from any sequence agrees")
  func overlappingLogCompressed() throws {
    // The overlap with records in the .log: compression of it used to make a .zst the next
    // open refused.
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.segment(1, .compressed),
      try DamagedJournal.compressedSegment(first: 1, [1, 2])
    )
    disk.setDurableContents(DamagedJournal.segment(2, .log), DamagedJournal.logSegment([3, 4]))
    disk.setDurableContents(DamagedJournal.segment(5, .log), DamagedJournal.logSegment([5]))
    let options = Support.smallSegments()
    #expect(try DamagedJournal.openAppendReopen(disk.copy(), options: options).refusal != nil)
    var salvage = options
    salvage.salvage = true
    // The overlapping file is set aside; records 3 and 4 went with it, and are reported missing.
    let outcome = try DamagedJournal.openAppendReopen(disk, options: salvage)
    #expect(outcome.records?.map(\.sequence) == [1, 2, 5])
  }

  @Test(
    "the first segment starting above the low-water mark + 1 is refused; salvage raises the mark")
  func firstSegmentRemoved() throws {
    let disk = SimulatedFileSystem()
    let options = Support.smallSegments()
    try JournalCrashTests.prepare(disk, 1...12, options: options)
    let names = DamagedJournal.segmentNames(on: disk)
    #expect(names.count > 2)
    try disk.remove(DamagedJournal.path(names[0]))
    try disk.syncDirectory(directory)
    let plain = try DamagedJournal.openAppendReopen(disk.copy(), options: options)
    #expect(plain.refusal?.message.contains("the low-water mark is 0") == true)
    var salvage = options
    salvage.salvage = true
    let outcome = try DamagedJournal.openAppendReopen(disk, options: salvage)
    let kept = try #require(outcome.records?.map(\.sequence))
    #expect(kept.last == 12)
    #expect(kept == Array(kept[0]...12))
    // The mark was raised: an open without salvage accepts the journal as it is now.
    let reopened = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? reopened.close() }
    #expect(reopened.lowWaterMark == kept[0] - 1)
    #expect(try reopened.records().map(\.sequence) == kept + [13])
  }

  @Test("append refuses a sequence above 2^62 with sequenceLimitReached; nothing is lost at reopen")
  func sequenceLimit() throws {
    let maximum = JournalFrame.maximumSequence
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.path(JournalFileNames.checkpoint),
      DamagedJournal.checkpoint(lowWater: maximum - 3))
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    #expect(try journal.append(batch: [[1], [2]], durable: true) == (maximum - 2)..<maximum)
    let batch = #expect(throws: StoreError.self) { try journal.append(batch: [[3], [4]]) }
    #expect(batch?.code == .sequenceLimitReached)
    #expect(try journal.append([5], durable: true) == maximum)
    let single = #expect(throws: StoreError.self) { try journal.append([6], durable: true) }
    #expect(single?.code == .sequenceLimitReached)
    #expect(try journal.append(batch: []).isEmpty)
    #expect(journal.lastSequence == maximum)
    try journal.close()

    let reopened = try Journal.open(directory: directory, fileSystem: disk.crashedDurableOnly())
    #expect(try reopened.records().map(\.sequence) == [maximum - 2, maximum - 1, maximum])
    #expect(throws: StoreError.self) { try reopened.append([7]) }
    try reopened.close()
  }

  @Test("a journal whose low-water mark is the last sequence opens with no room for an append")
  func sequenceLimitWithoutActiveSegment() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(
      DamagedJournal.path(JournalFileNames.checkpoint),
      DamagedJournal.checkpoint(lowWater: JournalFrame.maximumSequence))
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    #expect(try journal.records().isEmpty)
    #expect(journal.lastSequence == JournalFrame.maximumSequence)
    let error = #expect(throws: StoreError.self) { try journal.append([1], durable: true) }
    #expect(error?.code == .sequenceLimitReached)
    try journal.close()
    #expect(DamagedJournal.segmentNames(on: disk).isEmpty)
    #expect(try Journal.readable(disk).isEmpty)
  }

  /// Record 1, then records 2^62 - 1 and 2^62 in a `.log` after missing records, and a
  /// `.zst` holding 2^62 again: salvage sets the `.zst` aside, and no active segment can be
  /// made after 2^62.
  static func limitAfterMissingRecords() throws -> SimulatedFileSystem {
    let maximum = JournalFrame.maximumSequence
    let disk = SimulatedFileSystem()
    disk.setDurableContents(DamagedJournal.segment(1, .log), DamagedJournal.logSegment([1]))
    disk.setDurableContents(
      DamagedJournal.segment(maximum - 1, .log), DamagedJournal.logSegment([maximum - 1, maximum]))
    disk.setDurableContents(
      DamagedJournal.segment(maximum, .compressed),
      try DamagedJournal.compressedSegment(first: maximum, [maximum]))
    return disk
  }

  @Test(
    "salvage at the sequence limit with no active segment left: the last .log is the active one, marked, and every reopen returns what the open returned"
  )
  func sequenceLimitLastLogAfterMissingRecords() throws {
    let maximum = JournalFrame.maximumSequence
    let disk = try Self.limitAfterMissingRecords()
    let kept: [UInt64] = [1, maximum - 1, maximum]
    // Sealed segments stay `.log` files (a `.zst` is never the active segment).
    var options = Self.salvaging
    options.compressSealedSegments = false
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    #expect(try journal.records().map(\.sequence) == kept)
    #expect(try journal.segments().map(\.state) == [.sealed, .active])
    let refused = #expect(throws: StoreError.self) { try journal.append([1], durable: true) }
    #expect(refused?.code == .sequenceLimitReached)
    // Power lost right after the open: what it wrote is durable.
    let powerCut = disk.crashedDurableOnly()
    try journal.close()
    #expect(disk.contents(DamagedJournal.segment(maximum, .compressed) + ".corrupt-0") != nil)
    for reopened in [disk, powerCut] {
      // Twice: the reopen leaves the journal as the next one finds it.
      #expect(try Journal.readable(reopened, options: options) == kept)
      #expect(try Journal.readable(reopened, options: options) == kept)
    }
  }

  @Test(
    "snapshots and drops over an empty active segment, then close: never an empty .zst, and reopens agree"
  )
  func compactionOverAnEmptySegment() throws {
    let disk = SimulatedFileSystem()
    let options = Support.smallSegments()
    func emptyCompressedSegments() -> [String] {
      disk.allPaths().filter { path in
        guard path.hasSuffix(".zst"), let bytes = disk.contents(path), bytes.count >= 16 else {
          return false
        }
        return Array(bytes.suffix(16)).loadLittleEndian(UInt64.self, at: 0) == 0
      }
    }
    var journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    for sequence in 1...3 as ClosedRange<UInt64> {
      try journal.append(Support.payload(sequence), durable: true)
    }
    try journal.writeSnapshot(covering: 3, bytes: Support.state(through: 3))
    try journal.close()
    #expect(emptyCompressedSegments().isEmpty)
    // The active segment is empty now: compact and drop over it, compress, close.
    journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    try journal.writeSnapshot(covering: 3, bytes: Support.state(through: 3))
    try journal.dropThrough(3)
    try journal.compressSealedSegments()
    try journal.close()
    #expect(emptyCompressedSegments().isEmpty)
    journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    try journal.append(Support.payload(4), durable: true)
    try journal.writeSnapshot(covering: 4, bytes: Support.state(through: 4))
    try journal.close()
    #expect(emptyCompressedSegments().isEmpty)
    let outcome = try DamagedJournal.openAppendReopen(disk, options: options)
    #expect(outcome.records == [])
    #expect(try Journal.readable(disk, options: options) == [5])
  }
}

/// The repairs salvage makes to a directory that breaks the layout rules (a low-water mark
/// raised, a file set aside, a marker written into the active segment), crashed at every
/// point, recovery included.
@Suite("Journal recovery rules: salvage's repairs at every crash point")
struct JournalRecoveryRulesCrashTests {
  typealias Support = JournalTestSupport

  /// Four records in small segments (one each); `damage` breaks the layout; then an open with
  /// salvage appends the next record and closes. `kept` are the records the damage leaves.
  static func explore(
    kept: [UInt64], damage: @escaping (SimulatedFileSystem, [String]) throws -> Void
  ) -> CrashReport {
    explore(kept: kept) { disk in
      try JournalCrashTests.prepare(disk, 1...4, options: Support.smallSegments())
      let names = DamagedJournal.segmentNames(on: disk)
      guard names.count == 4 else { throw JournalCheckFailure("segments \(names)") }
      try damage(disk, names)
    }
  }

  /// A directory made by `setup`; an open with salvage must find `kept`, then appends the next
  /// record and closes.
  static func explore(
    kept: [UInt64], compress: Bool = true, setup: @escaping (SimulatedFileSystem) throws -> Void
  ) -> CrashReport {
    var options = Support.smallSegments(compress: compress)
    options.salvage = true
    let next = (kept.last ?? 0) + 1
    return Support.explore(
      crashRecovery: true, options: options, attempted: kept + [next], setup: setup,
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        let found = try journal.records().map(\.sequence)
        guard found == kept else { throw JournalCheckFailure("open found \(found)") }
        try JournalCrashTests.appendEach(journal, next...next, recorder)
        try journal.close()
      })
  }

  /// Removes the segment file `name`, durably.
  static func remove(_ name: String, on disk: SimulatedFileSystem) throws {
    try disk.remove(DamagedJournal.path(name))
    try disk.syncDirectory(Support.directory)
  }

  @Test("records missing before the first segment: the low-water mark is raised")
  func lowWaterRaised() throws {
    let probe = SimulatedFileSystem()
    try JournalCrashTests.prepare(probe, 1...4, options: Support.smallSegments())
    let second = try #require(
      JournalFileNames.parseSegment(DamagedJournal.segmentNames(on: probe)[1])?.first)
    let report = Self.explore(kept: Array(second...4)) { disk, names in
      try Self.remove(names[0], on: disk)
    }
    #expect(report.passed && report.operationError == nil, "\(report)")
  }

  @Test("records missing between two segments: accepted, and the active segment marked")
  func gapAccepted() throws {
    let probe = SimulatedFileSystem()
    try JournalCrashTests.prepare(probe, 1...4, options: Support.smallSegments())
    let names = DamagedJournal.segmentNames(on: probe)
    let firsts = names.compactMap { JournalFileNames.parseSegment($0)?.first }
    #expect(firsts.count == 4)
    // The segment right before the active one goes: the active segment follows the gap.
    let kept = (1...4 as ClosedRange<UInt64>).filter { $0 < firsts[2] || $0 >= firsts[3] }
    let report = Self.explore(kept: kept) { disk, names in
      try Self.remove(names[2], on: disk)
    }
    #expect(report.passed && report.operationError == nil, "\(report)")
  }

  @Test("an empty .log overlapping the last records: set aside, the active segment made anew")
  func overlapSetAside() throws {
    let report = Self.explore(kept: Array(1...4)) { disk, names in
      // Records 3 and 4 in one compressed segment, and a stray empty `.log` named 4 after it.
      for name in names.suffix(2) { try Self.remove(name, on: disk) }
      disk.setDurableContents(
        DamagedJournal.segment(3, .compressed),
        try DamagedJournal.compressedSegment(first: 3, [3, 4]))
      disk.setDurableContents(DamagedJournal.segment(4, .log), [])
    }
    #expect(report.passed && report.operationError == nil, "\(report)")
  }

  @Test(
    "salvage at the sequence limit, the last .log made active and marked: every crash point, recovery included, leaves a journal whose reopens agree"
  )
  func sequenceLimitLastLogMarked() throws {
    let maximum = JournalFrame.maximumSequence
    var options = JournalRecoveryRulesTests.salvaging
    options.compressSealedSegments = false
    let kept: [UInt64] = [1, maximum - 1, maximum]
    let image = try JournalRecoveryRulesTests.limitAfterMissingRecords()
    let report = CrashExplorer(budget: Support.budget(crashRecovery: true)).explore(
      setup: { disk in
        for path in image.allPaths() {
          disk.setDurableContents(path, image.contents(path) ?? [])
        }
      },
      operation: { disk, _ in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        let found = try journal.records().map(\.sequence)
        guard found == kept else { throw JournalCheckFailure("open found \(found)") }
        try journal.close()
      },
      recover: { disk in
        (try Journal.readable(disk, options: options), try Journal.readable(disk, options: options))
      },
      check: { found, context in
        try context.require(found.0 == found.1, "a reopen found \(found.1), the open \(found.0)")
        try context.require(found.0 == kept, .missingData, "recovery found \(found.0)")
      })
    #expect(report.passed && report.operationError == nil, "\(report)")
  }

  @Test(
    "a segment after missing records that becomes the active one is marked: no later open removes what is appended to it"
  )
  func activeAfterMissingRecordsMarked() {
    // 1 and 3 in sealed `.log` segments (2 is missing) and an empty `.log` named 5: it is
    // removed (nothing in it was durable), and 3 becomes the active segment. Without a durable
    // marker in it, a power cut after the next append would let a later open take it for the
    // segment after a torn seal (after 1), and remove it.
    let report = Self.explore(kept: [1, 3], compress: false) { disk in
      disk.setDurableContents(DamagedJournal.segment(1, .log), DamagedJournal.logSegment([1]))
      disk.setDurableContents(DamagedJournal.segment(3, .log), DamagedJournal.logSegment([3]))
      disk.setDurableContents(DamagedJournal.segment(5, .log), [])
    }
    #expect(report.passed && report.operationError == nil, "\(report)")
  }
}
