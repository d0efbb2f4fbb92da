import Testing

@testable import StoicStore
@testable import StoicTesting

/// The blocks reads of compressed segments borrow and give back: lent again to the next read,
/// bounded in number and size, and reused without any record of an earlier read showing
/// through.
@Suite("Journal compressed-block pool")
struct JournalCompressedBlockPoolTests {
  @Test("a pair given back is lent to the next read; the pool keeps at most its capacity")
  func lendsWhatWasGivenBack() {
    let pool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 1 << 20)
    let first = pool.borrowPair()
    #expect(first.count == 2 && first[0] !== first[1])
    #expect(pool.count == 0)
    pool.giveBack(first)
    #expect(pool.count == 2)
    let second = pool.borrowPair()
    #expect(Set(second.map(ObjectIdentifier.init)) == Set(first.map(ObjectIdentifier.init)))
    #expect(pool.count == 0)
    pool.giveBack(second + [JournalCompressedBlock(), JournalCompressedBlock()])
    #expect(pool.count == 2)
  }

  @Test("a block holding more than the limit is not kept")
  func dropsGrownBlocks() {
    let pool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 1024)
    let pair = pool.borrowPair()
    pair[0].stored = [UInt8](repeating: 7, count: 4096)
    pool.giveBack(pair)
    #expect(pool.count == 1)
    let next = pool.borrowPair()
    #expect(next.allSatisfy { $0 !== pair[0] })
    #expect(next.contains { $0 === pair[1] })
  }

  @Test("reads that reuse the blocks see exactly the records, also after a read stopped early")
  func reusedBlocksReadTheSameRecords() throws {
    let disk = SimulatedFileSystem()
    let options = JournalTestSupport.smallSegments(compress: true)
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk, options: options)
    for sequence in 1...300 as ClosedRange<UInt64> {
      try journal.append(JournalTestSupport.payload(sequence))
    }
    try journal.compressSealedSegments()
    var seen = 0
    let stopped = try #require(throws: StoreError.self) {
      try journal.forEachRecordBorrowing { (_, _) throws(StoreError) in
        seen += 1
        if seen == 17 { throw StoreError(.other, "stop here") }
      }
    }
    #expect(stopped.message == "stop here")
    for _ in 0..<3 {
      var records: [JournalRecord] = []
      try journal.forEachRecordBorrowing { (sequence, payload) throws(StoreError) in
        records.append(JournalRecord(sequence: sequence, payload: Array(payload)))
      }
      #expect(records.map(\.sequence) == Array(1...300))
      #expect(records.map(\.payload) == (1...300).map(JournalTestSupport.payload))
    }
    try journal.close()
  }
}
