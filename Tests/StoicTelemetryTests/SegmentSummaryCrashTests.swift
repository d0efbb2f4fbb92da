import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// Writing segment summaries is crash-safe: at every crash point of a query that writes them,
/// the journal still holds every record, and a query over what the crash left (summaries torn,
/// missing or half-renamed) returns exactly what brute force does.
@Suite struct SegmentSummaryCrashTests {
  @Test func aCrashWhileSummariesAreWrittenLosesNothing() throws {
    let query = LogQuery(minimumLevel: .warning)
    let recorded = SleepingLock<[LogRecord]>([])
    let report = CrashExplorer(budget: .fromEnvironment(default: 16)).explore(
      setup: { disk in
        let fixture = try QueryFixture.make(seed: 21, count: 120, on: disk)
        recorded.withLock { $0 = fixture.records }
      },
      operation: { disk, _ in
        let fixture = QueryFixture(disk: disk, records: [])
        let journal = try fixture.open()
        defer { try? journal.close() }
        try query.run(on: journal, summaries: fixture.summaries) { _ in true }
      },
      recover: { disk -> ([UInt64], [UInt64], Int) in
        let fixture = QueryFixture(disk: disk, records: [])
        let journal = try fixture.open()
        defer { try? journal.close() }
        let all = try journal.records().map(\.sequence)
        var found: [UInt64] = []
        // Read-only here: what the crash left is what is checked.
        let summaries = SegmentSummaryStore(
          directory: QueryFixture.summaryDirectory, fileSystem: disk, writable: false)
        let statistics = try query.run(on: journal, summaries: summaries) { record in
          found.append(record.sequence)
          return true
        }
        return (all, found, statistics.segments)
      },
      check: { state, context in
        let records = recorded.withLock { $0 }
        let fixture = QueryFixture(disk: SimulatedFileSystem(), records: records)
        try context.require(
          state.0 == records.map(\.sequence), "the journal lost or changed records")
        try context.require(
          state.1 == fixture.bruteForce(query), "the query differs from brute force")
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil)
    #expect(
      report.crashPoints > 10, "\(report.crashPoints) crash points, \(report.imagesChecked) images")
    print("summary crash test: \(report.crashPoints) crash points, \(report.imagesChecked) images")
  }
}
