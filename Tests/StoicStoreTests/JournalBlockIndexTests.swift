import StoicTesting
import Testing

@testable import StoicStore

/// Reads from the middle of a compressed segment start at the block that holds the first
/// sequence asked for, once a read has learned where the blocks are; and a block that is not
/// what the index says sends the read back to the segment's header.
@Suite struct JournalBlockIndexTests {
  static let directory = "/data/journal"
  /// Records of 4 KiB: a segment of 6 MiB holds about 1,500 of them, in 6 blocks of 1 MiB.
  static let recordSize = 4 << 10

  static func payload(_ sequence: UInt64, size: Int = recordSize) -> [UInt8] {
    var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: sequence), count: size)
    withUnsafeBytes(of: sequence.littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
    // Varied enough that zstd keeps the blocks near their raw size.
    var state = sequence &* 0x9E37_79B9_7F4A_7C15 | 1
    for index in stride(from: 8, to: size, by: 8) {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
  }

  static let options = JournalOptions(
    segmentSize: 6 << 20, compressSealedSegments: true, backgroundMaintenance: false)

  /// A journal whose first segment (sequences 1…n) is sealed and compressed; returns it open,
  /// with the compressed segment's path and its last sequence.
  static func journal(
    on disk: SimulatedFileSystem, recordSize: Int = recordSize, earlierNames: Bool = false
  ) throws -> (Journal, path: String, last: UInt64) {
    var journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    var sequence: UInt64 = 0
    while try journal.segments().count < 2 {
      sequence += 1
      try journal.append(payload(sequence, size: recordSize))
    }
    try journal.compressSealedSegments()
    if earlierNames {
      // A name recording no summary: a segment of another size can take its place.
      try journal.close()
      try JournalTestSupport.earlierFormNames(on: disk)
      journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    }
    let segments = try journal.segments()
    #expect(segments.first?.state == .compressed)
    let name = try #require(
      disk.list(directory).first { $0.hasSuffix(".zst") }, "no compressed segment")
    let last = try #require(segments.dropFirst().first).first - 1
    return (journal, StorePath.join(directory, name), last)
  }

  static func sequences(_ journal: Journal, from start: UInt64, count: Int) throws -> [UInt64] {
    var seen: [UInt64] = []
    try journal.forEachRecordBorrowing(from: start) { (sequence, payload) throws(StoreError) in
      guard seen.count < count else { return }
      #expect(Array(payload) == Self.payload(sequence), "record \(sequence)")
      seen.append(sequence)
    }
    return seen
  }

  @Test func readsFromTheMiddleReturnTheSameRecordsOnceTheBlocksAreKnown() throws {
    let disk = SimulatedFileSystem()
    let (journal, path, last) = try Self.journal(on: disk)
    let name = StorePath.name(of: path)
    #expect(journal.blockIndex.start(of: name, for: last) == nil)
    // A first read learns where the blocks start.
    #expect(try Self.sequences(journal, from: 1, count: Int(last)) == Array(1...last))
    let known = try #require(journal.blockIndex.start(of: name, for: last))
    #expect(known.position > 0 && known.first <= last && known.first > 1)
    for start in [2, last / 3, last / 2, last - 1, last] as [UInt64] {
      #expect(
        try Self.sequences(journal, from: start, count: 5)
          == Array(start...min(start + 4, last + 5)).filter { $0 <= journal.lastSequence },
        "from \(start)")
    }
    try journal.close()
  }

  @Test func aReadFromTheIndexDoesNotTouchTheBlocksBeforeItsStart() throws {
    let disk = SimulatedFileSystem()
    let (journal, path, last) = try Self.journal(on: disk)
    _ = try Self.sequences(journal, from: 1, count: Int(last))
    // Damage the first block's stored bytes.
    var bytes = try #require(disk.durableContents(path))
    bytes[JournalCompressedSegment.headerSize + JournalCompressedSegment.blockHeaderSize + 9] ^= 1
    disk.setDurableContents(path, bytes)
    #expect(try Self.sequences(journal, from: last - 2, count: 3) == [last - 2, last - 1, last])
    // A read from the start meets the damage.
    let error = #expect(throws: StoreError.self) {
      _ = try Self.sequences(journal, from: 1, count: 1)
    }
    #expect(error?.code == .corrupt)
    try journal.close()
  }

  struct Enough: Error {}

  @Test func aBlockThatIsNotWhatTheIndexSaysSendsTheReadBackToTheHeader() throws {
    let disk = SimulatedFileSystem()
    let (journal, path, last) = try Self.journal(on: disk, earlierNames: true)
    _ = try Self.sequences(journal, from: 1, count: Int(last))
    let start = last / 2
    let known = try #require(journal.blockIndex.start(of: StorePath.name(of: path), for: start))
    // The file is replaced by a segment of the same name whose blocks start elsewhere (records
    // of another size): the index now points into the middle of a block.
    let other = SimulatedFileSystem()
    let (otherJournal, otherPath, _) = try Self.journal(
      on: other, recordSize: 3 << 10, earlierNames: true)
    #expect(StorePath.name(of: otherPath) == StorePath.name(of: path))
    let replaced = try #require(other.durableContents(otherPath))
    try otherJournal.close()
    disk.setDurableContents(path, replaced)
    var read: [UInt64] = []
    do {
      try journal.forEachRecordBorrowing(from: start) { (sequence, payload) throws(Enough) in
        #expect(Array(payload) == Self.payload(sequence, size: 3 << 10), "record \(sequence)")
        read.append(sequence)
        if read.count == 3 { throw Enough() }
      }
    } catch is Enough {}
    #expect(read == [start, start + 1, start + 2])
    // What the index knows now is the new file's blocks.
    let relearned = try #require(
      journal.blockIndex.start(of: StorePath.name(of: path), for: start))
    #expect(relearned != known)
    try journal.close()
  }

  @Test("batches read in order through a segment's blocks decode each block about once")
  func batchesInOrderDecodeEachBlockOnce() throws {
    let disk = SimulatedFileSystem()
    var options = Self.options
    let pool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 8 << 20)
    options.blockPool = pool
    let journal = try Journal.open(directory: Self.directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    var sequence: UInt64 = 0
    while try journal.segments().count < 2 {
      sequence += 1
      try journal.append(Self.payload(sequence))
    }
    try journal.compressSealedSegments()
    let last = try #require(try journal.segments().dropFirst().first).first - 1
    // A first read learns where the blocks are.
    #expect(try Self.sequences(journal, from: 1, count: Int(last)) == Array(1...last))
    let name = try #require(disk.list(Self.directory).first { $0.hasSuffix(".zst") })
    let lastBlock = try #require(journal.blockIndex.start(of: name, for: last))
    #expect(lastBlock.position > 0)
    let before = pool.keptDecodes()
    // Then a hundred records at a time, each read stopped there, as a forwarder forms batches.
    var start: UInt64 = 1
    var read: [UInt64] = []
    while start <= last {
      var batch: [UInt64] = []
      let stopped = try #require(throws: StoreError.self) {
        try journal.forEachRecordBorrowing(from: start) { (sequence, _) throws(StoreError) in
          batch.append(sequence)
          if batch.count == 100 || sequence == last { throw StoreError(.other, "batch") }
        }
      }
      #expect(stopped.message == "batch")
      read += batch
      start += UInt64(batch.count)
    }
    #expect(read == Array(1...last))
    // Six blocks of 1 MiB: each decoded once as the batches reach it, and one more at most
    // where the first batch starts over the blocks the full read left behind (without the
    // blocks' memory, each batch decoded its block and the one after it: about thirty).
    let batches = (Int(last) + 99) / 100
    #expect(batches >= 14)
    #expect(
      pool.keptDecodes() - before <= 8,
      "\(pool.keptDecodes() - before) decodes for \(batches) batches")
  }
}
