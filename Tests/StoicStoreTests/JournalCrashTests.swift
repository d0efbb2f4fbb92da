import Dispatch
import Testing

@testable import StoicStore
@testable import StoicTesting

/// The journal's crash invariant at every crash point of the simulated disk: recovery yields a
/// prefix of the appended records at least as long as the acknowledged ones, in order, with
/// increasing sequences, and a further append is readable after another reopen.
@Suite("Journal crash consistency")
struct JournalCrashTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  /// Appends `sequences` one at a time, acknowledging each once `append` returned.
  static func appendEach(
    _ journal: Journal, _ sequences: ClosedRange<UInt64>, _ recorder: CrashRecorder
  ) throws {
    for sequence in sequences {
      let got = try journal.append(Support.payload(sequence))
      guard got == sequence else { throw JournalCheckFailure("got sequence \(got)") }
      recorder.acknowledge(String(sequence))
    }
  }

  /// Makes a journal holding `sequences`, durably, and closes it.
  static func prepare(
    _ disk: SimulatedFileSystem, _ sequences: ClosedRange<UInt64>,
    options: JournalOptions = JournalOptions()
  ) throws {
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk, options: options)
    for sequence in sequences { try journal.append(Support.payload(sequence)) }
    try journal.close()
  }

  /// Default options with mapped or positional appends; mapped ones write zeros ahead in
  /// chunks of 64 bytes, so that a few records cross several chunks at every crash point.
  static func options(mapped: Bool, syncPolicy: SyncPolicy = .always) -> JournalOptions {
    var options = JournalOptions(syncPolicy: syncPolicy, mappedAppends: mapped)
    options.zeroAheadBytes = 64
    options.zeroAheadMinimumRate = 0
    return options
  }

  @Test(
    "single appends, from creating the journal to closing it", arguments: [true, false])
  func singleAppends(mapped: Bool) {
    let report = Self.singleAppendsScenario(options: Self.options(mapped: mapped))
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 10)
  }

  /// Creates the journal, appends three records, closes it.
  static func singleAppendsScenario(options: JournalOptions) -> CrashReport {
    Support.explore(
      options: options, attempted: Array(1...3),
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        try Self.appendEach(journal, 1...3, recorder)
        try journal.close()
      })
  }

  @Test("batches: one write and one sync each; never a gap", arguments: [true, false])
  func batches(mapped: Bool) {
    let options = Self.options(mapped: mapped)
    let report = Support.explore(
      options: options, attempted: Array(1...5),
      setup: { disk in try Self.prepare(disk, 1...1) },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        let first = try journal.append(batch: (2...3).map(Support.payload))
        for sequence in first { recorder.acknowledge(String(sequence)) }
        let second = try journal.append(batch: (4...5).map(Support.payload))
        for sequence in second { recorder.acknowledge(String(sequence)) }
        try journal.close()
      })
    #expect(report.passed, "\(report)")
  }

  @Test("never policy: only what sync covered must survive", arguments: [true, false])
  func neverPolicy(mapped: Bool) {
    let options = Self.options(mapped: mapped, syncPolicy: .never)
    let report = Support.explore(
      options: options, attempted: Array(1...4),
      setup: { disk in try Self.prepare(disk, 1...1) },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        try journal.append(Support.payload(2))
        try journal.append(Support.payload(3))
        try journal.sync()
        recorder.acknowledge("2")
        recorder.acknowledge("3")
        try journal.append(Support.payload(4))
        try journal.close()
        recorder.acknowledge("4")
      })
    #expect(report.passed, "\(report)")
  }

  @Test("group commit from several threads", arguments: [true, false])
  func groupCommit(mapped: Bool) {
    let options = Self.options(
      mapped: mapped, syncPolicy: .groupCommit(maxDelay: .microseconds(200), maxRecords: 3))
    let threadPayloads: Set<[UInt8]> = Set(
      (0..<3).flatMap { thread in (0..<2).map { [UInt8(thread), UInt8($0)] } })
    let report = Support.explore(
      options: options, attempted: Array(1...7),
      validPayload: { record in
        record.sequence == 1
          ? record.payload == Support.payload(1) : threadPayloads.contains(record.payload)
      },
      setup: { disk in try Self.prepare(disk, 1...1) },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
          for index in 0..<2 {
            guard let sequence = try? journal.append([UInt8(thread), UInt8(index)]) else { return }
            recorder.acknowledge(String(sequence))
          }
        }
        try journal.close()
      })
    #expect(report.passed, "\(report)")
  }

  @Test("a torn tail is cut at open and later appends survive", arguments: [true, false])
  func repairedTornTail(mapped: Bool) throws {
    let report = Self.tornTailScenario(options: Self.options(mapped: mapped))
    #expect(report.passed, "\(report)")
  }

  /// Two durable records and half of a third; open, append two more, close.
  static func tornTailScenario(options: JournalOptions, crashRecovery: Bool = true) -> CrashReport {
    Support.explore(
      crashRecovery: crashRecovery, options: options, attempted: Array(1...4),
      setup: { disk in
        try Self.prepare(disk, 1...2)
        guard let segment = Support.activeSegment(on: disk), let bytes = disk.contents(segment)
        else { throw JournalCheckFailure("no segment") }
        var torn: [UInt8] = []
        JournalFrame.appendRecord(sequence: 3, payload: Support.payload(3), to: &torn)
        disk.setDurableContents(segment, bytes + torn.prefix(torn.count - 2))
      },
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        try Self.appendEach(journal, 3...4, recorder)
        try journal.close()
      })
  }

  @Test("a salvage keeps the later records at every crash point, its own included")
  func salvage() {
    var options = JournalOptions()
    options.salvage = true
    let attempted: [UInt64] = [1, 3, 4, 5, 6]
    let report = Support.explore(
      crashRecovery: true, options: options, attempted: attempted,
      setup: { disk in
        try Self.prepare(disk, 1...4)
        try Self.flipPayloadByte(of: 2, on: disk)
      },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        guard journal.recovery.salvagedRecords == 2 else {
          throw JournalCheckFailure("salvaged \(journal.recovery.salvagedRecords)")
        }
        try Self.appendEach(journal, 5...6, recorder)
        try journal.close()
      })
    #expect(report.passed, "\(report)")
  }

  /// Flips a byte in the payload of record `sequence` (written with `Support.payload`) in the
  /// active segment, as bit rot would.
  static func flipPayloadByte(of sequence: UInt64, on disk: SimulatedFileSystem) throws {
    guard let segment = Support.activeSegment(on: disk), let bytes = disk.contents(segment) else {
      throw JournalCheckFailure("no segment")
    }
    var frame: [UInt8] = []
    JournalFrame.appendRecord(sequence: sequence, payload: Support.payload(sequence), to: &frame)
    guard
      let offset = (0...(bytes.count - frame.count)).first(where: {
        Array(bytes[$0..<($0 + frame.count)]) == frame
      })
    else { throw JournalCheckFailure("record \(sequence) not found") }
    disk.damage(
      segment, at: offset + JournalFrame.headerSize + 1,
      with: [bytes[offset + JournalFrame.headerSize + 1] ^ 0x10])
  }

  @Test(
    "maintenance compression on its own (the background worker's path, run synchronously): at every crash point"
  )
  func maintenanceCompression() {
    let options = Support.smallSegments()
    let raw = Support.smallSegments(compress: false)
    let report = Support.explore(
      crashRecovery: true, options: options, attempted: Array(1...8),
      setup: { disk in try Self.prepare(disk, 1...6, options: raw) },
      operation: { disk, recorder in
        // The prepared records were made durable by the close.
        for sequence in 1...6 as ClosedRange<UInt64> { recorder.acknowledge(String(sequence)) }
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        guard disk.allPaths().filter({ $0.hasSuffix(".log") }).count > 1 else {
          throw JournalCheckFailure("no sealed .log segment to compress")
        }
        try journal.compressSealedSegments()
        guard disk.allPaths().contains(where: { $0.hasSuffix(".zst") }) else {
          throw JournalCheckFailure("nothing was compressed")
        }
        try Self.appendEach(journal, 7...8, recorder)
        try journal.close()
      })
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 10)
  }

  @Test("one compaction: snapshot, then removal of covered segments")
  func oneCompaction() {
    let report = Self.compactionScenario(options: Support.smallSegments())
    #expect(report.passed, "\(report)")
  }

  /// Three durable records in small segments; append one, snapshot through 3, append two.
  static func compactionScenario(options: JournalOptions, crashRecovery: Bool = true) -> CrashReport
  {
    Support.explore(
      crashRecovery: crashRecovery, options: options, attempted: Array(1...6),
      setup: { disk in try Self.prepare(disk, 1...3, options: options) },
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        try Self.appendEach(journal, 4...4, recorder)
        try journal.writeSnapshot(covering: 3, bytes: Support.state(through: 3))
        try Self.appendEach(journal, 5...6, recorder)
        try journal.close()
      })
  }

  @Test("two compactions: a snapshot and a drop of everything")
  func twoCompactions() {
    let options = Support.smallSegments()
    let report = Support.explore(
      options: options, attempted: Array(1...6),
      setup: { disk in try Self.prepare(disk, 1...2, options: options) },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        try journal.writeSnapshot(covering: 2, bytes: Support.state(through: 2))
        try Self.appendEach(journal, 3...4, recorder)
        try journal.writeSnapshot(covering: 4, bytes: Support.state(through: 4))
        try Self.appendEach(journal, 5...6, recorder)
        try journal.close()
      })
    #expect(report.passed, "\(report)")
  }

  @Test("drops of acknowledged records: below the last record (unlocked) and through it")
  func drops() {
    let report = Self.dropScenario(options: Support.smallSegments(), crashRecovery: false)
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 20)
  }

  /// Six durable records in small segments; drop through 3 and 5 (sealed segments removed
  /// without the journal's lock), then through the last record (the active segment replaced),
  /// appending between the drops.
  static func dropScenario(options: JournalOptions, crashRecovery: Bool = true) -> CrashReport {
    Support.explore(
      crashRecovery: crashRecovery, options: options, attempted: Array(1...9),
      setup: { disk in try Self.prepare(disk, 1...6, options: options) },
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        try journal.dropThrough(3)
        try Self.appendEach(journal, 7...7, recorder)
        try journal.dropThrough(5)
        try Self.appendEach(journal, 8...8, recorder)
        try journal.dropThrough(8)
        try Self.appendEach(journal, 9...9, recorder)
        try journal.close()
      })
  }

  @Test("segment rolls with compression of the sealed segments", arguments: [true, false])
  func segmentRolls(mapped: Bool) {
    var options = Support.smallSegments()
    options.mappedAppends = mapped
    let report = Support.explore(
      options: options, attempted: Array(1...5),
      setup: { disk in try Self.prepare(disk, 1...1, options: options) },
      operation: { disk, recorder in
        let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
        try Self.appendEach(journal, 2...5, recorder)
        try journal.close()
      })
    #expect(report.passed, "\(report)")
  }
}
