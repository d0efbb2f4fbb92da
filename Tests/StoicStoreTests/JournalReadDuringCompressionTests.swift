import StoicStore
import StoicTesting
import Testing

/// A read that meets the segment that was active when it began already rolled, sealed and
/// compressed (appends made during the read, as a spool's own events are, then background
/// maintenance) reads it from its compressed file, and hands out none of the records appended
/// after it began.
@Suite("Journal read during compression")
struct JournalReadDuringCompressionTests {
  @Test("the active segment compressed during a read is read from its .zst, up to the view")
  func activeSegmentCompressedMidRead() throws {
    let journal = try Journal.open(
      directory: "/j", fileSystem: SimulatedFileSystem(),
      options: JournalOptions(
        syncPolicy: .never, segmentSize: 1 << 10, backgroundMaintenance: false))
    let payload = [UInt8](repeating: 0x61, count: 100)
    for _ in 0..<30 { _ = try journal.append(payload) }
    let last = journal.lastSequence
    var seen: [UInt64] = []
    var rolled = false
    try journal.forEachRecordBorrowing { (sequence, _) throws(StoreError) in
      seen.append(sequence)
      guard !rolled else { return }
      rolled = true
      // The active segment fills, rolls and seals; then every sealed one is compressed.
      for _ in 0..<30 { _ = try journal.append(payload) }
      try journal.compressSealedSegments()
    }
    #expect(rolled)
    #expect(seen == Array(1...last), "\(seen.count) records seen of \(last)")
    #expect(journal.lastSequence == last + 30)
    try journal.close()
  }
}
