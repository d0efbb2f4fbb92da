import StoicTesting
import Testing

@testable import StoicStore

/// Reads from the middle of a `.log` segment start at the record start a read before them
/// learned, so a segment read batch by batch is walked about once, not once per batch; an index
/// entry that names another record sends the read back to the segment's first frame, and damage
/// after a learned start is reported as before.
@Suite struct JournalFrameIndexTests {
  static let directory = "/data/journal"

  static func payload(_ sequence: UInt64) -> [UInt8] {
    Array("record \(sequence);".utf8)
      + [UInt8](repeating: UInt8(truncatingIfNeeded: sequence), count: 80)
  }

  /// Stops a read once a batch is full.
  struct Enough: Error {}

  /// Up to `count` records from `start`, each checked against its payload.
  static func batch(_ journal: Journal, from start: UInt64, count: Int) throws -> [UInt64] {
    var seen: [UInt64] = []
    do {
      try journal.forEachRecordBorrowing(from: start) { (sequence, payload) throws(Enough) in
        guard seen.count < count else { throw Enough() }
        #expect(Array(payload) == Self.payload(sequence), "record \(sequence)")
        seen.append(sequence)
      }
    } catch is Enough {}
    return seen
  }

  static func journal(on disk: any FileSystem, records: UInt64, segmentSize: UInt64) throws
    -> Journal
  {
    let journal = try Journal.open(
      directory: directory, fileSystem: disk,
      options: JournalOptions(
        syncPolicy: .never, segmentSize: segmentSize, compressSealedSegments: false,
        backgroundMaintenance: false))
    for sequence in 1...records { try journal.append(payload(sequence)) }
    return journal
  }

  @Test func anActiveSegmentReadBatchByBatchIsWalkedAboutOnce() throws {
    let disk = MeteredFileSystem(SimulatedFileSystem())
    let records: UInt64 = 30_000
    let journal = try Self.journal(on: disk, records: records, segmentSize: 64 << 20)
    #expect(try journal.segments().count == 1)
    let segmentBytes = records * UInt64(JournalFrame.headerSize + Self.payload(records).count)
    _ = disk.reset()
    var start: UInt64 = 1
    while start <= records {
      let batch = try Self.batch(journal, from: start, count: 1_000)
      #expect(batch == Array(start...min(start + 999, records)))
      start += 1_000
    }
    let read = disk.reset().bytesRead
    // Thirty reads, each of its own thousand records and at most two windows past them:
    // without the index each walks the segment from its start (about 15 times its size).
    #expect(read <= 2 * segmentBytes, "\(read) bytes read for a segment of \(segmentBytes)")
    let name = try #require(disk.list(Self.directory).first { $0.hasSuffix(".log") })
    let known = try #require(journal.frameIndex.start(of: name, for: 5_500))
    #expect(known.sequence == 5_001 && known.previousSequence == 5_000 && known.position > 0)
    try journal.close()
  }

  @Test func anEntryNamingAnotherRecordSendsTheReadBackToTheStart() throws {
    let disk = SimulatedFileSystem()
    let journal = try Self.journal(on: disk, records: 5_000, segmentSize: 64 << 20)
    let name = try #require(disk.list(Self.directory).first { $0.hasSuffix(".log") })
    #expect(try Self.batch(journal, from: 1, count: 2_000) == Array(1...2_000))
    let known = try #require(journal.frameIndex.start(of: name, for: 2_001))
    #expect(known.sequence == 2_001)
    let wrong: [JournalFrameIndex.Entry] = [
      // The right frame, named as another record.
      .init(position: known.position, sequence: 2_006, previousSequence: 2_005),
      // Inside a frame.
      .init(position: known.position + 3, sequence: 2_501, previousSequence: 2_500),
      // Past the end of the segment.
      .init(position: 50 << 20, sequence: 3_001, previousSequence: 3_000),
    ]
    for entry in wrong {
      journal.frameIndex.forget(name)
      journal.frameIndex.learn(name, entry)
      let start = entry.sequence + 7
      #expect(try Self.batch(journal, from: start, count: 100) == Array(start..<(start + 100)))
      #expect(journal.frameIndex.start(of: name, for: entry.sequence) != entry)
    }
    try journal.close()
  }

  @Test func damageAfterALearnedStartIsReported() throws {
    let disk = SimulatedFileSystem()
    let journal = try Self.journal(on: disk, records: 6_000, segmentSize: 256 << 10)
    let segments = try journal.segments()
    #expect(segments.count > 1 && segments[0].state == .sealed)
    let name = try #require(
      disk.list(Self.directory).filter { $0.hasSuffix(".log") }.sorted().first)
    #expect(try Self.batch(journal, from: 1, count: 1_000) == Array(1...1_000))
    #expect(journal.frameIndex.start(of: name, for: 1_001)?.sequence == 1_001)
    // One byte of record 1,500's payload flipped in the sealed segment.
    let path = Self.directory + "/" + name
    let bytes = try #require(try disk.readWholeFile(path))
    let marker = Array("record 1500;".utf8)
    let offset = try #require(
      (0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
    let handle = try disk.open(path, .readWrite)
    try disk.write(handle, [bytes[offset] ^ 0x20], at: UInt64(offset))
    try disk.close(handle)
    for start: UInt64 in [1_001, 1] {
      let error = #expect(throws: StoreError.self, "from \(start)") {
        _ = try Self.batch(journal, from: start, count: 2_000)
      }
      #expect(error?.code == .corrupt)
    }
    // Before the damage, from the learned start, the records are there.
    #expect(try Self.batch(journal, from: 1_001, count: 400) == Array(1_001...1_400))
    try journal.close()
  }
}
