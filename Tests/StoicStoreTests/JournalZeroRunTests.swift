import Testing

@_spi(Testing) @testable import StoicStore
@testable import StoicTesting

/// A run of zeros (the preallocated tail of an active segment after a crash, or a sparse file
/// named like a segment) is passed by the scanner in one step at memory speed, not an offset at
/// a time; and a segment far larger than the journal's segments grow is reported.
@Suite struct JournalZeroRunTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  @Test func theFirstAndLastNonZeroByteAreFoundAnywhere() {
    for size in [0, 1, 7, 4095, 4096, 4097, 3 * 4096 + 5] {
      let zeros = [UInt8](repeating: 0, count: size)
      #expect(zeros.withUnsafeBytes { JournalSegmentScanner.firstNonZero(in: $0) } == nil)
      #expect(zeros.withUnsafeBytes { JournalSegmentScanner.lastNonZero(in: $0) } == nil)
      for index in Set([0, 1, size / 2, 4095, 4096, size - 1]) where index >= 0 && index < size {
        var bytes = zeros
        bytes[index] = 0x40
        #expect(bytes.withUnsafeBytes { JournalSegmentScanner.firstNonZero(in: $0) } == index)
        #expect(bytes.withUnsafeBytes { JournalSegmentScanner.lastNonZero(in: $0) } == index)
      }
    }
    var two = [UInt8](repeating: 0, count: 3 * 4096)
    two[5000] = 1
    two[9000] = 0x80
    #expect(two.withUnsafeBytes { JournalSegmentScanner.firstNonZero(in: $0) } == 5000)
    #expect(two.withUnsafeBytes { JournalSegmentScanner.lastNonZero(in: $0) } == 9000)
  }

  /// Records 1...3, one damaged byte, 8 MiB of zeros, then record 4 whose length field starts
  /// with a zero byte (length 256: `00 01 00 00`), more zeros, a marker claiming the damage
  /// durable, and zeros to the end.
  @Test func aRunOfZerosIsPassedInOneStepWithoutChangingWhatIsFound() throws {
    var bytes: [UInt8] = []
    for sequence: UInt64 in 1...3 {
      JournalFrame.appendRecord(sequence: sequence, payload: Support.payload(sequence), to: &bytes)
    }
    let damage = UInt64(bytes.count)
    bytes.append(0xFF)
    bytes += [UInt8](repeating: 0, count: 8 << 20)
    let recordAt = UInt64(bytes.count)
    JournalFrame.appendRecord(
      sequence: 4, payload: [UInt8](repeating: 7, count: 248), to: &bytes)
    #expect(bytes[Int(recordAt)..<Int(recordAt) + 4] == [0, 1, 0, 0])
    bytes += [UInt8](repeating: 0, count: 100_003)
    let markerAt = UInt64(bytes.count)
    bytes += JournalFrame.marker(
      durableSequence: 4, durableEnd: damage + 1, segmentFirst: 1, position: markerAt)
    bytes += [UInt8](repeating: 0, count: 1 << 20)

    let disk = SimulatedFileSystem()
    let path = directory + "/" + JournalFileNames.segment(first: 1, kind: .log)
    try disk.createDirectoryDurably(directory)
    disk.setDurableContents(path, bytes)
    let handle = try disk.open(path, .readOnly)
    defer { try? disk.close(handle) }
    var scanner = JournalSegmentScanner(
      fileSystem: disk, handle: handle, fileSize: UInt64(bytes.count), options: JournalOptions(),
      segmentFirst: 1, previousSequence: 0)
    #expect(try scanner.forEachRecord { (_, _) throws(StoreError) in } == damage)
    #expect(scanner.previousSequence == 3)
    #expect(try scanner.durableClaim(after: damage) == damage + 1)
    #expect(try scanner.resynchronize(after: damage) == recordAt)
    #expect(try scanner.resynchronize(after: recordAt) == markerAt)
    #expect(
      try scanner.firstNonZero(from: markerAt + UInt64(JournalFrame.markerSize))
        == UInt64(bytes.count))
    // Offset by offset, the walks would look at about 20 million offsets.
    #expect(scanner.steps < 1_000, "looked at \(scanner.steps) offsets one by one")
  }

  @Test func aSegmentFarLargerThanTheSegmentSizeIsReported() throws {
    var options = JournalOptions(segmentSize: 64 << 10)
    options.maxRecordSize = 1024
    let disk = SimulatedFileSystem()
    try JournalCrashTests.prepare(disk, 1...3, options: options)
    let segment = try #require(Support.activeSegment(on: disk))
    let bytes = try #require(disk.contents(segment))
    let oversized = bytes + [UInt8](repeating: 0, count: 4 * (64 << 10))
    disk.setDurableContents(segment, oversized)
    let events = JournalEventLog()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: options, events: events.sink)
    defer { try? journal.close() }
    #expect(try journal.records().map(\.sequence) == [1, 2, 3])
    let found = events.named(StoreEvents.journalSegmentOversized)
    #expect(found.count == 1)
    #expect(found.first?["path"] == segment)
    #expect(found.first?["bytes"] == String(oversized.count))
    #expect(found.first?["segmentSize"] == String(64 << 10))
    #expect(found.first?.level == .warning)
    #expect(StoreEvents.catalog.contains(StoreEvents.journalSegmentOversized))
  }

  @Test func aSegmentAsLargeAsTheJournalGrowsOneIsNotReported() throws {
    var options = JournalOptions(segmentSize: 4 << 10)
    options.maxRecordSize = 1024
    options.compressSealedSegments = false
    options.backgroundMaintenance = false
    let disk = SimulatedFileSystem()
    try JournalCrashTests.prepare(disk, 1...400, options: options)
    let segment = try #require(Support.activeSegment(on: disk))
    let bytes = try #require(disk.contents(segment))
    // The active segment's preallocated zeros at their largest, as a crash leaves them.
    disk.setDurableContents(segment, bytes + [UInt8](repeating: 0, count: 4 << 10))
    let events = JournalEventLog()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: options, events: events.sink)
    defer { try? journal.close() }
    #expect(try journal.segments().count > 3)
    #expect(try journal.records().count == 400)
    #expect(events.named(StoreEvents.journalSegmentOversized).isEmpty)
  }
}
