import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The query layer: random queries over a generated journal of many segments (compressed and
/// not) return exactly what a brute-force filter over every record returns, whatever state
/// the segment summaries are in.
@Suite struct LogQueryTests {
  /// How many random queries the property test runs (`STOIC_QUERY_CASES`, default 60).
  static let cases = EnvironmentValue.integer("STOIC_QUERY_CASES") ?? 60

  @Test func randomQueriesMatchBruteForceWhateverTheSummaries() throws {
    let fixture = try QueryFixture.make(seed: 0x5E6_0E11)
    let journal = try fixture.open()
    defer { try? journal.close() }
    let segments = try journal.segments()
    #expect(segments.count > 20, "the fixture has \(segments.count) segments")
    #expect(segments.contains { $0.state == .compressed })
    #expect(segments.contains { $0.state == .sealed })
    var random = SplitMix64(seed: 42)
    var total = LogQueryStatistics()
    for index in 0..<Self.cases {
      // Between queries, damage the summaries: delete, flip a byte, truncate, or move one to
      // another segment's name (a valid file covering another range).
      if index > 0 { try Self.damageSummary(fixture, &random) }
      let query = fixture.randomQuery(&random)
      var found: [UInt64] = []
      let statistics = try query.run(on: journal, summaries: fixture.summaries) { record in
        found.append(record.sequence)
        return true
      }
      let expected = fixture.bruteForce(query)
      #expect(found == expected, "query \(index): \(query)")
      #expect(statistics.matched == expected.count)
      total.segmentsSkipped += statistics.segmentsSkipped
      total.summariesInvalid += statistics.summariesInvalid
      total.summariesWritten += statistics.summariesWritten
      total.summariesUsed += statistics.summariesUsed
    }
    // The test means something only if summaries were used, skipped segments and were found
    // damaged along the way.
    #expect(total.segmentsSkipped > 0)
    #expect(total.summariesInvalid > 0)
    #expect(total.summariesWritten > segments.count - 1)
    #expect(total.summariesUsed > 0)
  }

  /// Damages one summary file at random.
  static func damageSummary(_ fixture: QueryFixture, _ random: inout SplitMix64) throws {
    let store = fixture.summaries
    let kept = store.summarised()
    guard !kept.isEmpty else { return }
    let victim = store.path(first: kept[random.below(kept.count)])
    guard var bytes = try fixture.disk.readWholeFile(victim) else { return }
    switch random.below(4) {
    case 0:
      try fixture.disk.remove(victim)
    case 1:
      bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8))
      try Self.write(bytes, to: victim, on: fixture.disk)
    case 2:
      try Self.write(Array(bytes.prefix(random.below(bytes.count))), to: victim, on: fixture.disk)
    default:
      let other = store.path(first: kept[random.below(kept.count)])
      try Self.write(bytes, to: other, on: fixture.disk)
    }
  }

  static func write(_ bytes: [UInt8], to path: String, on disk: SimulatedFileSystem) throws {
    let handle = try disk.open(path, .createOrOpen)
    defer { try? disk.close(handle) }
    try disk.truncate(handle, to: 0)
    try disk.write(handle, bytes, at: 0)
  }

  @Test func summariesSkipSegmentsThatCannotMatch() throws {
    let fixture = try QueryFixture.make(seed: 7)
    let journal = try fixture.open()
    defer { try? journal.close() }
    let newest = try #require(fixture.records.map(\.timeNanoseconds).max())
    let query = LogQuery(since: newest - 60_000_000_000)
    let first = try query.run(on: journal, summaries: fixture.summaries) { _ in true }
    #expect(first.segmentsSkipped == 0)
    #expect(first.summariesWritten == first.segments - 1)
    var found: [UInt64] = []
    let second = try query.run(on: journal, summaries: fixture.summaries) { record in
      found.append(record.sequence)
      return true
    }
    #expect(found == fixture.bruteForce(query))
    #expect(second.segmentsSkipped > second.segments / 2, "\(second)")
    #expect(second.recordsRead < first.recordsRead / 2)
  }

  @Test func aSummaryIsNeverUsedForTheActiveSegment() throws {
    let fixture = try QueryFixture.make(seed: 9, count: 300)
    let journal = try fixture.open()
    defer { try? journal.close() }
    let segments = try journal.segments()
    let active = try #require(segments.last)
    // A valid summary claiming the active segment holds nothing at all.
    var lie = SegmentSummary(first: active.first, last: journal.lastSequence)
    lie.records = 0
    try fixture.summaries.save(lie)
    var found: [UInt64] = []
    try LogQuery().run(on: journal, summaries: fixture.summaries) { record in
      found.append(record.sequence)
      return true
    }
    #expect(found == fixture.records.map(\.sequence))
  }

  @Test func lookupRefusesWhatIsNotTheSummaryAsked() throws {
    let disk = SimulatedFileSystem()
    let store = SegmentSummaryStore(directory: "/data/summaries", fileSystem: disk)
    #expect(store.lookup(first: 1, last: 10) == .missing)
    var summary = SegmentSummary(first: 1, last: 10)
    summary.records = 10
    try store.save(summary)
    #expect(store.lookup(first: 1, last: 10) == .valid(summary))
    // Another range than the segment holds now.
    #expect(store.lookup(first: 1, last: 11) == .invalid)
    // A file far larger than any summary is not read.
    try LogQueryTests.write(
      SegmentSummaryFormat.encode(summary) + [UInt8](repeating: 0, count: 100 << 10),
      to: store.path(first: 1), on: disk)
    #expect(store.lookup(first: 1, last: 10) == .invalid)
  }

  @Test func aNewerBuildsRecordIsCountedNeverReturned() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: QueryFixture.logs, fileSystem: disk,
      options: JournalOptions(syncPolicy: .never, mappedAppends: false))
    defer { try? journal.close() }
    let record = LogRecord(timeNanoseconds: 5, level: .error, label: "app", message: "old")
    var newer = LogRecordFormat.encode(record)
    newer[LogRecordFormat.versionOffset] = LogRecordFormat.version + 1
    _ = try journal.append(LogRecordFormat.encode(record))
    _ = try journal.append(newer)
    var found: [UInt64] = []
    let statistics = try LogQuery(minimumLevel: .error).run(on: journal) { record in
      found.append(record.sequence)
      return true
    }
    #expect(found == [1])
    #expect(statistics.unreadable == 1)
    let newest = try LogTail.newest(2, in: journal)
    #expect(newest.map(\.record?.message) == ["old", nil])
  }

  @Test func limitStopsEarlyAndABodyCanStop() throws {
    let fixture = try QueryFixture.make(seed: 11, count: 400)
    let journal = try fixture.open()
    defer { try? journal.close() }
    var seen = 0
    let statistics = try LogQuery().run(on: journal) { _ in
      seen += 1
      return seen < 5
    }
    #expect(seen == 5)
    #expect(statistics.recordsRead < 400)
    let limited = try LogQuery(limit: 3).run(on: journal) { _ in true }
    #expect(limited.matched == 3)
  }

  @Test func queryOverAnOpenTelemetrySpool() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    defer { try? spool.close() }
    for index in 0..<50 {
      spool.logs.log(
        level: index % 5 == 0 ? .error : .info, label: "app", message: "event \(index)",
        metadata: ["n": .string(String(index))])
    }
    var messages: [String] = []
    try spool.query(
      LogQuery(minimumLevel: .error, conditions: [LogMetadataCondition(key: "n", value: "10")])
    ) { record in
      messages.append(record.message)
      return true
    }
    #expect(messages == ["event 10"])
  }

  @Test func tailReturnsTheNewestRecords() throws {
    let fixture = try QueryFixture.make(seed: 13, count: 500)
    let journal = try fixture.open()
    defer { try? journal.close() }
    let newest = try LogTail.newest(7, in: journal)
    #expect(newest.map(\.sequence) == fixture.records.suffix(7).map(\.sequence))
    #expect(try LogTail.newest(0, in: journal).isEmpty)
    #expect(try LogTail.newest(10_000, in: journal).count == 500)
  }
}
