import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The journal appends find without a lock or a retain: a journal the spool replaces stays
/// held while an append may be using it, and is released once none can.
@Suite("Spool append journal")
struct SpoolAppendJournalTests {
  /// A journal of its own on `disk`, to put in place of a spool's.
  static func otherJournal(_ disk: SimulatedFileSystem) throws -> Journal {
    try Journal.open(
      directory: "/other", fileSystem: disk,
      options: JournalOptions(syncPolicy: .never, backgroundMaintenance: false))
  }

  @Test("appends reach the journal pointed at, and none once it is none")
  func pointsAtTheJournal() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    let logs = spool.logs
    let current = try #require(logs.currentJournal())
    #expect(logs.appendJournal.withJournal { $0 === current } == true)
    let pointed = logs.appendJournal.isCurrent(current)
    #expect(pointed)
    try spool.close()
    #expect(logs.appendJournal.withJournal { _ in true } == nil)
    let stillPointed = logs.appendJournal.isCurrent(current)
    #expect(!stillPointed)
  }

  @Test("a replaced journal is held while an append is counted in, released once none is")
  func retiredUntilIdle() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    let logs = spool.logs
    weak let old = logs.currentJournal()
    let replacement = try Self.otherJournal(disk)
    let heldDuringAppend = logs.appendJournal.withJournal { journal -> Bool in
      let idle = logs.appendJournal.isIdle
      #expect(!idle)
      let replaced = logs.replaceJournal(with: replacement)
      #expect(replaced === journal)
      logs.releaseRetiredJournals()
      // The append in progress still uses `journal`: it must not have been released.
      return old != nil && logs.state.withLock { $0.retired.count } == 1
    }
    #expect(heldDuringAppend == true)
    let idle = logs.appendJournal.isIdle
    #expect(idle)
    logs.releaseRetiredJournals()
    #expect(logs.state.withLock { $0.retired.isEmpty })
    #expect(old == nil)
    // Appends go to the replacement.
    #expect(logs.log(level: .info, label: "l", message: "after") != nil)
    #expect(replacement.lastSequence > 0)
    try spool.close()
  }
}
