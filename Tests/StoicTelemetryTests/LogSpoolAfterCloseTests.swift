import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// Records logged after the spool closed (a service still logging after Stoic's shutdown): each
/// is dropped and counted under `after_close`, the count is in the file for the next start,
/// and the spool says so once.
@Suite("LogSpool: records logged after close")
struct LogSpoolAfterCloseTests {
  typealias Support = SpoolTestSupport

  @Test("counted under after_close (not disk_error), said once, and the count survives a restart")
  func countedAndKept() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let spool = try Support.open(disk, events: events.sink)
    for index in 0..<3 {
      #expect(spool.logs.log(level: .info, label: "app", message: "r\(index)") != nil)
    }
    try spool.close()
    for index in 0..<5 {
      #expect(spool.logs.log(level: .notice, label: "app", message: "late \(index)") == nil)
    }
    #expect(spool.dropCounts.afterClose == 5)
    #expect(spool.dropCounts.diskError == 0)
    let said = events.named(SpoolEvents.recordsAfterClose)
    #expect(said.count == 1)
    #expect(said.first?["path"] == Support.root + "/logs")

    // The next start (the process gone: the disk as it is) finds the count.
    let again = try Support.open(disk)
    #expect(again.dropCounts.afterClose == 5)
    #expect(again.dropCounts.diskError == 0)
    let messages = try again.logs.entries().compactMap(\.record).filter { $0.label == "app" }
    #expect(messages.map(\.message) == ["r0", "r1", "r2"])
    try again.close()
  }

  @Test("once another opener holds the spool, later counts stay in memory and its file is its own")
  func anotherOpenerKeepsItsFile() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    try spool.close()
    #expect(spool.logs.log(level: .info, label: "app", message: "late") == nil)
    let other = try Support.open(disk)
    #expect(other.dropCounts.afterClose == 1)
    #expect(spool.logs.log(level: .info, label: "app", message: "later") == nil)
    #expect(spool.dropCounts.afterClose == 2)
    #expect(other.dropCounts.afterClose == 1)
    try other.close()
    let third = try Support.open(disk)
    #expect(third.dropCounts.afterClose == 1)
    try third.close()
  }
}
