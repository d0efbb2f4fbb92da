import Testing

@testable import StoicStore
@testable import StoicTesting

/// `store.journal_truncated` after a crash in the middle of an append tells the torn bytes of
/// the interrupted record apart from the preallocated zeros after it, at `info`: nothing
/// acknowledged was lost.
@Suite struct JournalTornTailReportTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  @Test func tornBytesAndZerosAreReportedApart() throws {
    let disk = SimulatedFileSystem()
    let events = JournalEventLog()
    try JournalCrashTests.prepare(disk, 1...3)
    let segment = try #require(Support.activeSegment(on: disk))
    let bytes = try #require(disk.contents(segment))
    // Record 4's frame, torn after 21 bytes (the last of them not zero), then the zeros of a
    // preallocated tail.
    var frame: [UInt8] = []
    JournalFrame.appendRecord(sequence: 4, payload: Support.payload(4), to: &frame)
    var torn = Array(frame.prefix(21))
    torn[torn.count - 1] |= 1
    let zeros = [UInt8](repeating: 0, count: (1 << 20) + 37)
    disk.setDurableContents(segment, bytes + torn + zeros)
    let journal = try Journal.open(directory: directory, fileSystem: disk, events: events.sink)
    defer { try? journal.close() }
    #expect(try journal.records().map(\.sequence) == [1, 2, 3])
    #expect(journal.recovery.truncatedBytes == UInt64(torn.count + zeros.count))
    let cut = events.named(StoreEvents.journalTruncated.name)
    #expect(cut.count == 1)
    #expect(cut.first?["validBytes"] == String(bytes.count))
    #expect(cut.first?["droppedBytes"] == String(torn.count))
    #expect(cut.first?["zeroBytes"] == String(zeros.count))
    #expect(cut.first?.level == .info)
    #expect(try journal.append(Support.payload(4)) == 4)
  }

  @Test func theCatalogSaysWhatItMeansForData() {
    let entry = StoreEvents.journalTruncated
    #expect(entry.level == .info)
    #expect(entry.fields == ["path", "validBytes", "droppedBytes", "zeroBytes"])
    #expect(entry.summary.contains("no acknowledged record lost"))
  }
}
