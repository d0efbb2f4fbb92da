import Testing

@testable import StoicStore
@testable import StoicTesting

/// `Duration.clampedNanoseconds`: exact in range, 0 below it, `UInt64.max` above it; and a
/// journal given a duration too long to count in nanoseconds does not trap.
@Suite("Duration in nanoseconds")
struct DurationNanosecondsTests {
  @Test("exact in range, clamped outside it")
  func clamping() {
    #expect(Duration.milliseconds(10).clampedNanoseconds == 10_000_000)
    #expect(Duration.seconds(3).clampedNanoseconds + 1 == 3_000_000_001)
    #expect(Duration.nanoseconds(-5).clampedNanoseconds == 0)
    #expect(Duration.seconds(Int64.max).clampedNanoseconds == UInt64.max)
  }

  @Test("an interval policy of Int64.max seconds appends, syncs on close and does not trap")
  func enormousInterval() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: .interval(.seconds(Int64.max))))
    try journal.append([1, 2, 3])
    try journal.close()
    let reopened = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk.crashedDurableOnly())
    #expect(try reopened.records().map(\.payload) == [[1, 2, 3]])
    try reopened.close()
  }
}
