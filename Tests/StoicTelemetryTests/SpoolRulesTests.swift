import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The spool's labelled rules (`SpoolRules`): each check holds in the states the spool is
/// driven into, and fails on the state that would break it (where the spool asserts it, a
/// debug build would trap there).
@Suite("SpoolRules: the quota accounting and the log path's rules, asserted")
struct SpoolRulesTests {
  typealias Support = SpoolTestSupport

  static func log(_ spool: TelemetrySpool, _ index: Int) -> UInt64? {
    spool.logs.log(
      level: .info, label: "app", message: "record \(index) " + String(repeating: "x", count: 60))
  }

  @Test("@Q1: adding drops and completing a removal only make the counts grow")
  func countsOnlyGrow() throws {
    let spool = try Support.open(SimulatedFileSystem())
    let counters = spool.dropCounters
    let start = counters.counts
    counters.add(3, reason: .quota)
    let added = counters.counts
    #expect(SpoolRules.countsGrow(from: start, to: added))
    #expect(added.quota == start.quota + 3)
    try counters.beginDrop(4, reason: .age, through: 10)
    #expect(counters.counts == added, "a removal under way is not counted yet")
    counters.completeDrop()
    let completed = counters.counts
    #expect(SpoolRules.countsGrow(from: added, to: completed))
    #expect(completed.age == added.age + 4)
    // The state that breaks the rule: a count lower than before.
    #expect(!SpoolRules.countsGrow(from: completed, to: start))
    #expect(!SpoolRules.countGrows(from: 5, to: 4))
    #expect(SpoolRules.countGrows(from: 4, to: 4))
    try spool.close()
  }

  @Test(
    "@Q2: a removal is recorded as under way, with its reason, count and end, before it is made")
  func removalRecordedFirst() throws {
    let spool = try Support.open(SimulatedFileSystem())
    let counters = spool.dropCounters
    #expect(!SpoolRules.removalRecorded(counters.pendingDrop, count: 4, reason: .age, through: 10))
    try counters.beginDrop(4, reason: .age, through: 10)
    #expect(SpoolRules.removalRecorded(counters.pendingDrop, count: 4, reason: .age, through: 10))
    #expect(!SpoolRules.removalRecorded(counters.pendingDrop, count: 4, reason: .age, through: 11))
    #expect(!SpoolRules.removalRecorded(counters.pendingDrop, count: 5, reason: .age, through: 10))
    #expect(
      !SpoolRules.removalRecorded(counters.pendingDrop, count: 4, reason: .quota, through: 10))
    try counters.abandonDrop()
    #expect(!SpoolRules.removalRecorded(counters.pendingDrop, count: 4, reason: .age, through: 10))
    try spool.close()
  }

  @Test("@Q2–@Q4 hold while a full spool drops its oldest segments (asserted on that path)")
  func retentionKeepsTheRules() throws {
    let spool = try Support.open(
      SimulatedFileSystem(), options: LogSpoolQuotaTests.options(.dropOldest))
    for index in 0..<1_500 { _ = Self.log(spool, index) }
    #expect(spool.dropCounts.quota > 0, "the spool never dropped: the rules were not driven")
    #expect(spool.dropCounters.pendingDrop == nil)
    let journal = try #require(spool.logs.currentJournal())
    let segments = try journal.segments()
    let bytes = segments.reduce(UInt64(0)) { $0 + $1.bytes }
    #expect(SpoolRules.keptBytesMatch(bytes, segments: segments[...]))
    #expect(SpoolRules.keptBytesMatch(bytes - segments[0].bytes, segments: segments.dropFirst()))
    #expect(!SpoolRules.keptBytesMatch(bytes + 1, segments: segments[...]))
    let sealed = segments.prefix { $0.isSealed }.count
    #expect(sealed > 0 && sealed < segments.count)
    #expect(segments.last?.state == .active)
    #expect(SpoolRules.removesOnlySealedOlder(segments, taken: sealed))
    // The states that break the rule: every segment taken (none kept after), the active one
    // taken, a negative count.
    #expect(!SpoolRules.removesOnlySealedOlder(segments, taken: segments.count))
    #expect(!SpoolRules.removesOnlySealedOlder(Array(segments.suffix(2).reversed()), taken: 1))
    #expect(!SpoolRules.removesOnlySealedOlder(segments, taken: -1))
    #expect(SpoolRules.removesOnlySealedOlder([], taken: 0))
    try spool.close()
  }

  @Test("@L1: a spool that takes records has no failure recorded, through a disk error and back")
  func writableWithoutFailure() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.recoveryInterval = .seconds(3600)
    let spool = try Support.open(disk, options: options)
    func check() -> (writable: Bool, failed: Bool) {
      let (writable, failure) = spool.logs.state.withLock {
        (spool.logs.writable.load(ordering: .relaxed), $0.failure)
      }
      #expect(SpoolRules.takesRecordsWithoutFailure(writable: writable, failure: failure))
      return (writable, failure != nil)
    }
    #expect(check() == (true, false))
    disk.inject(.noSpaceOnMap(nth: 1))
    disk.inject(.noSpaceOnWrite(nth: 1))
    var index = 0
    while Self.log(spool, index) != nil, index < 100 { index += 1 }
    #expect(check() == (false, true), "the disk error never stopped the log path")
    // Recovery is due now: the next call's maintenance reopens the journal.
    spool.logs.state.withLock { $0.nextRecovery = .now }
    _ = Self.log(spool, index + 1)
    #expect(check() == (true, false), "the spool did not recover")
    #expect(Self.log(spool, index + 2) != nil)
    // The state that breaks the rule: taking records with a failure recorded.
    let failure = StoreError(.diskFull, "full", path: Support.root)
    #expect(!SpoolRules.takesRecordsWithoutFailure(writable: true, failure: failure))
    #expect(SpoolRules.takesRecordsWithoutFailure(writable: false, failure: failure))
    try spool.close()
  }
}
