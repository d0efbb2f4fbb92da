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

  /// Segments of about a hundred of the tests' records, each compressed as one block.
  static let blockSizedSegments = JournalOptions(
    segmentSize: 4096, readWindow: 64, compressSealedSegments: true,
    backgroundMaintenance: false)

  @Test(
    "a block decoded again from the same stored bytes takes its records back; other bytes or limits decode"
  )
  func decodeTakenBackOnlyForTheSameInput() {
    func raw(_ payloads: [[UInt8]], first: UInt64) -> [UInt8] {
      var encoder = JournalRecordBlock.Encoder()
      for (index, payload) in payloads.enumerated() {
        payload.withUnsafeBytes { encoder.append(sequence: first + UInt64(index), payload: $0) }
      }
      return encoder.columns() + encoder.rests
    }
    let block = JournalCompressedBlock()
    func load(_ bytes: [UInt8], maxRecordSize: Int = 1 << 20) -> [[UInt8]] {
      block.clear()
      block.kind = JournalCompressedSegment.kindRaw
      block.stored = bytes
      block.rawLength = bytes.count
      block.position = 20
      block.decode(maxRecordSize: maxRecordSize, payloadLimit: 1 << 20)
      var records: [[UInt8]] = []
      var start = 0
      for end in block.ends {
        records.append(Array(block.payloads[start..<end]))
        start = end
      }
      return records
    }
    let a = (1...20 as ClosedRange<UInt64>).map(JournalTestSupport.payload)
    var b = a
    b[7][0] ^= 0xFF
    #expect(load(raw(a, first: 1)) == a && block.decodes == 1)
    #expect(load(raw(a, first: 1)) == a && block.decodes == 1)
    #expect(load(raw(b, first: 1)) == b && block.decodes == 2)
    #expect(load(raw(a, first: 1)) == a && block.decodes == 3)
    #expect(load(raw(a, first: 1), maxRecordSize: 4096) == a && block.decodes == 4)
    #expect(load(raw(a, first: 101)) == a && block.decodes == 5 && block.first == 101)
    #expect(load(raw(a, first: 101)) == a && block.decodes == 5 && block.first == 101)
    // A decode that fails forgets what was decoded before it.
    #expect(load(Array(raw(a, first: 101).dropLast())).isEmpty && block.failure != nil)
    #expect(load(raw(a, first: 101)) == a && block.decodes == 7 && block.failure == nil)
  }

  @Test("journals at one path on two disks, read through one pool, each read their own records")
  func sameNamesOtherBytes() throws {
    var options = Self.blockSizedSegments
    options.blockPool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 4 << 20)
    var journals: [(journal: Journal, payloads: [[UInt8]])] = []
    for salt: UInt8 in [0, 0x5A] {
      let journal = try Journal.open(
        directory: JournalTestSupport.directory, fileSystem: SimulatedFileSystem(),
        options: options)
      let payloads = (1...300 as ClosedRange<UInt64>).map {
        JournalTestSupport.payload($0).map { $0 ^ salt }
      }
      for payload in payloads { try journal.append(payload) }
      try journal.compressSealedSegments()
      journals.append((journal, payloads))
    }
    // Each read stops after ten records, so the pool's blocks last decoded the segment the
    // other journal's read then starts in: the same name, the same block positions and lengths.
    for from in [1, 150, 1, 150] as [UInt64] {
      for (journal, payloads) in journals {
        var read: [[UInt8]] = []
        let stopped = try #require(throws: StoreError.self) {
          try journal.forEachRecordBorrowing(from: from) { (_, payload) throws(StoreError) in
            read.append(Array(payload))
            if read.count == 10 { throw StoreError(.other, "enough") }
          }
        }
        #expect(stopped.message == "enough")
        #expect(read == Array(payloads[Int(from - 1)..<Int(from + 9)]))
      }
    }
    for (journal, _) in journals { try journal.close() }
  }

  @Test("a read of the next records of a block just read decodes no block again")
  func nextRangeOfABlockIsNotDecodedAgain() throws {
    let disk = SimulatedFileSystem()
    var options = Self.blockSizedSegments
    let pool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 4 << 20)
    options.blockPool = pool
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk, options: options)
    for sequence in 1...300 as ClosedRange<UInt64> {
      try journal.append(JournalTestSupport.payload(sequence))
    }
    try journal.compressSealedSegments()
    // Ten records at a time, each read stopped there as a batch's read is.
    var batches: [[UInt64]] = []
    var counts: [Int] = []
    for from: UInt64 in [1, 11, 1] {
      var sequences: [UInt64] = []
      let stopped = try #require(throws: StoreError.self) {
        try journal.forEachRecordBorrowing(from: from) { (sequence, _) throws(StoreError) in
          sequences.append(sequence)
          if sequences.count == 10 { throw StoreError(.other, "enough") }
        }
      }
      #expect(stopped.message == "enough")
      batches.append(sequences)
      counts.append(pool.keptDecodes())
    }
    #expect(batches == [Array(1...10), Array(11...20), Array(1...10)])
    #expect(counts[0] > 0)
    #expect(counts == [counts[0], counts[0], counts[0]])
    try journal.close()
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

extension JournalCompressedBlockPool {
  /// The full decodes of the blocks the pool keeps now (lent and given back to count them).
  func keptDecodes() -> Int {
    let pair = borrowPair()
    defer { giveBack(pair) }
    return pair.map(\.decodes).reduce(0, +)
  }
}
