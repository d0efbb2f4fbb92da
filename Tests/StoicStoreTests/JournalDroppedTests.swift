import Dispatch
import StoicStore
import StoicTesting
import Testing

@Suite("Journal dropped without close: background work stops with it")
struct JournalDroppedTests {
  @Test("after the last reference goes, at most the segment in progress is compressed")
  func droppedJournalStopsMaintenance() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(
      syncPolicy: .never, segmentSize: 256, compressSealedSegments: false,
      backgroundMaintenance: false)
    options.maxRecordSize = 128
    let writer = try Journal.open(directory: "/j", fileSystem: disk, options: options)
    for index in 0..<200 { try writer.append(contentsOf: "record \(index) with some text".utf8) }
    try writer.close()
    let sealedLogs = disk.allPaths().filter { $0.hasSuffix(".log") }.count - 1
    #expect(sealedLogs >= 6)

    // The first compression's sync waits at the gate while the app drops the journal.
    let gate = Gate()
    let gating = Gate()
    let arrived = SharedCounter()
    let door = JournalSyncCountingFileSystem(disk) {
      guard gating.isOpen else { return }
      arrived.add()
      gate.wait()
    }
    gating.open()
    options.compressSealedSegments = true
    options.backgroundMaintenance = true
    var journal: Journal? = try Journal.open(directory: "/j", fileSystem: door, options: options)
    weak let dropped = journal
    var waited = 0
    while arrived.value == 0 && waited < 4000 {
      usleepMilliseconds(5)
      waited += 1
    }
    #expect(arrived.value == 1, "the background compression never started")
    journal = nil
    gate.open()
    waited = 0
    while dropped != nil && waited < 4000 {
      usleepMilliseconds(5)
      waited += 1
    }
    #expect(dropped == nil, "the journal was kept alive by its background work")
    usleepMilliseconds(50)
    let compressed = disk.allPaths().filter { $0.hasSuffix(".zst") }.count
    #expect(compressed <= 1, "\(compressed) of \(sealedLogs) segments compressed after the drop")

    let reopened = try Journal.open(directory: "/j", fileSystem: disk, options: options)
    #expect(try reopened.records().count == 200)
    try reopened.close()
  }
}
