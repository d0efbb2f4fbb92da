import Testing

@testable import StoicStore
@testable import StoicTesting

#if canImport(Glibc)
  import Glibc
#endif

/// Appends through a mapping of the active segment: the preallocated zeros after the last
/// frame, their cut at seal and close, a crash that leaves them, growth, and the fallback to
/// positional writes when no mapping can be made.
@Suite("Journal appends through a mapping")
struct JournalMappingTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  /// The bytes of `count` frames of the test payloads 1...count.
  static func framesSize(_ sequences: ClosedRange<UInt64>) -> Int {
    sequences.reduce(0) { $0 + JournalFrame.recordSize(payloadCount: Support.payload($1).count) }
  }

  @Test("the active segment is preallocated while open and ends at its last frame once closed")
  func closeCutsThePreallocatedZeros() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: JournalOptions(syncPolicy: .never))
    for sequence in 1...3 as ClosedRange<UInt64> { try journal.append(Support.payload(sequence)) }
    let segment = try #require(Support.activeSegment(on: disk))
    let open = try #require(disk.contents(segment))
    #expect(open.count == Int(Journal.firstMappingLength))
    #expect(open[Self.framesSize(1...3)...].allSatisfy { $0 == 0 })
    try journal.close()
    // The frames and one final sync marker, nothing after it.
    #expect(disk.contents(segment)?.count == Self.framesSize(1...3) + JournalFrame.markerSize)
    #expect(disk.durableContents(segment) == disk.contents(segment))
  }

  @Test("a crash leaves zeros after the last record: open goes on from there and cuts nothing")
  func crashLeavesZeros() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    for sequence in 1...2 as ClosedRange<UInt64> { try journal.append(Support.payload(sequence)) }
    let crashed = disk.copy()
    let events = EventRecorder()
    let reopened = try Journal.open(directory: directory, fileSystem: crashed, events: events.sink)
    #expect(reopened.recovery.truncatedBytes == 0)
    #expect(!events.names.contains(StoreEvents.journalTruncated.name))
    #expect(try reopened.append(Support.payload(3)) == 3)
    try reopened.close()
    let records = try Journal.open(directory: directory, fileSystem: crashed.crashedDurableOnly())
      .records()
    #expect(records.map(\.sequence) == [1, 2, 3])
    #expect(records.map(\.payload) == (1...3).map(Support.payload))
  }

  @Test("garbage in the preallocated tail is still a torn tail, cut and reported")
  func garbageAfterTheLastRecordIsCut() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    try journal.append(Support.payload(1))
    let segment = try #require(Support.activeSegment(on: disk))
    let end = UInt64(Self.framesSize(1...1) + JournalFrame.markerSize)
    let crashed = disk.copy()
    let handle = try crashed.open(segment, .readWrite)
    try crashed.write(handle, [0xAB, 0xCD, 0xEF], at: end + 100)
    try crashed.close(handle)
    let events = EventRecorder()
    let reopened = try Journal.open(directory: directory, fileSystem: crashed, events: events.sink)
    #expect(reopened.recovery.truncatedBytes > 0)
    #expect(events.names.contains(StoreEvents.journalTruncated.name))
    #expect(try reopened.records().map(\.sequence) == [1])
  }

  @Test("frames larger than the mapping grow it; a record larger than a segment still fits")
  func growth() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .never, segmentSize: 16 << 10)
    options.compressSealedSegments = false
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let payloads: [[UInt8]] = [1_000, 5_000, 9_000, 40_000, 300].enumerated().map {
      index, count in (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
    }
    for payload in payloads { try journal.append(payload) }
    #expect(try journal.records().map(\.payload) == payloads)
    try journal.close()
    let reopened = try Journal.open(
      directory: directory, fileSystem: disk.crashedDurableOnly(), options: options)
    #expect(try reopened.records().map(\.payload) == payloads)
  }

  @Test("no space to map: positional writes from then on, reported once; a full disk is thrown")
  func noSpaceToMapFallsBack() throws {
    let disk = SimulatedFileSystem()
    let events = EventRecorder()
    let journal = try Journal.open(directory: directory, fileSystem: disk, events: events.sink)
    disk.inject(.noSpaceOnMap(nth: 1))
    disk.inject(.noSpaceOnWrite(nth: 1, partialBytes: 5))
    #expect(throws: StoreError.self) { try journal.append(Support.payload(1)) }
    #expect(events.names.filter { $0 == StoreEvents.journalMappingUnavailable.name }.count == 1)
    #expect(journal.lastSequence == 0)
    let segment = try #require(Support.activeSegment(on: disk))
    #expect(disk.contents(segment)?.isEmpty == true)
    disk.clearFaults()
    for sequence in 1...3 as ClosedRange<UInt64> {
      #expect(try journal.append(Support.payload(sequence)) == sequence)
    }
    // Positional writes: the file ends at the last frame, with no zeros after it.
    #expect(
      disk.contents(segment)?.count ?? 0 <= Self.framesSize(1...3) + 3 * JournalFrame.markerSize)
    #expect(events.names.filter { $0 == StoreEvents.journalMappingUnavailable.name }.count == 1)
    try journal.close()
    let records = try Journal.open(directory: directory, fileSystem: disk.crashedDurableOnly())
      .records()
    #expect(records.map(\.sequence) == [1, 2, 3])
  }

  /// Small segments, sealed without compression, appended through mappings.
  static func rollsScenario(options: JournalOptions) -> CrashReport {
    Support.explore(
      options: options, attempted: Array(1...6),
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        try JournalCrashTests.appendEach(journal, 1...6, recorder)
        try journal.close()
      })
  }

  @Test("mapped appends across segment rolls, sealed as .log, at every crash point")
  func rollsAtEveryCrashPoint() {
    let options = Support.smallSegments(compress: false)
    let report = Self.rollsScenario(options: options)
    #expect(report.passed, "\(report)")
  }

  @Test("zeros are written ahead of the appends, never over a frame, and cut at close")
  func zerosAhead() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .never, segmentSize: 1 << 20)
    options.compressSealedSegments = false
    options.zeroAheadBytes = 1024
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let segment = try #require(Support.activeSegment(on: disk))
    let payload = [UInt8](repeating: 0xA5, count: 300)
    for count in 1...40 {
      try journal.append(payload)
      let (end, zeroed, length) = try journal.state.withLock { core in
        (
          try #require(core.active?.end), try #require(core.active?.zeroedEnd),
          try #require(core.active?.mapping?.length)
        )
      }
      // One chunk past the end at least (while the mapping holds it), never more than two.
      #expect(zeroed >= min(end + 1024, length / 1024 * 1024), "after \(count): \(zeroed)")
      #expect(zeroed <= end + 2 * 1024)
      #expect(zeroed <= length)
      let bytes = try #require(disk.contents(segment))
      #expect(bytes[Int(end)..<Int(zeroed)].allSatisfy { $0 == 0 })
    }
    #expect(try journal.records().map(\.payload) == Array(repeating: payload, count: 40))
    try journal.close()
    let closed = try #require(disk.contents(segment))
    #expect(
      closed.count == 40 * JournalFrame.recordSize(payloadCount: 300) + JournalFrame.markerSize)
  }

  @Test("with the default chunk, each chunk of zeros ahead is one positional write")
  func zerosAheadChunkIsOneWrite() throws {
    // The page cache keeps what one write brought in as one folio, and one page fault maps a
    // folio whole: a chunk written in pieces would cost the appends a fault per piece.
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .never, segmentSize: 4 << 20)
    options.compressSealedSegments = false
    let chunk = UInt64(options.zeroAheadBytes)
    #expect(chunk >= 64 << 10)
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let payload = [UInt8](repeating: 0x5A, count: 300)
    func state() throws -> (zeroed: UInt64, length: UInt64) {
      try journal.state.withLock { core in
        (try #require(core.active?.zeroedEnd), core.active?.mapping?.length ?? 0)
      }
    }
    var plain: Set<Int> = []
    var zeroing: [Int] = []
    for _ in 0..<20_000 where zeroing.count < 4 {
      let before = try state()
      let operations = disk.operationCount
      try journal.append(payload)
      let after = try state()
      let delta = disk.operationCount - operations
      // Appends that remapped the segment are left out: they also reserve and map.
      guard after.length == before.length else { continue }
      if after.zeroed == before.zeroed {
        plain.insert(delta)
      } else if before.zeroed > 0 {
        #expect(after.zeroed - before.zeroed == chunk)
        zeroing.append(delta)
      }
    }
    #expect(zeroing.count == 4)
    // Every append without zeros costs the same; one that writes a chunk costs one write more.
    #expect(plain.count == 1)
    let base = try #require(plain.first)
    #expect(zeroing.allSatisfy { $0 == base + 1 }, "\(zeroing) against \(base)")
    try journal.close()
  }

  @Test("zeros ahead stop while the appends between two syncs come slowly; a burst resumes them")
  func zerosAheadFollowTheRate() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .never, segmentSize: 1 << 20)
    options.compressSealedSegments = false
    options.zeroAheadBytes = 1024
    options.zeroAheadMinimumRate = 64 << 10
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let payload = [UInt8](repeating: 0xA5, count: 300)
    func state() throws -> (end: UInt64, zeroed: UInt64, length: UInt64) {
      try journal.state.withLock { core in
        (
          try #require(core.active?.end), try #require(core.active?.zeroedEnd),
          try #require(core.active?.mapping?.length)
        )
      }
    }
    /// Where zeros ahead would be by now if they were on.
    func due(_ state: (end: UInt64, zeroed: UInt64, length: UInt64)) -> UInt64 {
      min(state.end + 1024, state.length / 1024 * 1024)
    }
    // Until the journal knows a rate (two syncs), it writes zeros ahead.
    try journal.append(payload)
    #expect(try state().zeroed >= due(state()))
    try journal.sync()
    // 316 bytes in 50 ms, about 6,000 a second: below the rate that pays.
    usleep(50_000)
    try journal.append(payload)
    try journal.sync()
    let slow = try state()
    // Five more, 20 ms apart: still slow when they cross a chunk and look again.
    for _ in 0..<5 {
      usleep(20_000)
      try journal.append(payload)
    }
    let afterSlow = try state()
    #expect(afterSlow.end >= slow.end + 1024)
    #expect(afterSlow.zeroed == slow.zeroed)
    #expect(afterSlow.zeroed < due(afterSlow), "zeros written at about 16,000 bytes a second")
    // A burst of 31,600 bytes: the next look finds the appends fast, before any sync.
    for _ in 0..<100 { try journal.append(payload) }
    let burst = try state()
    #expect(burst.zeroed > afterSlow.zeroed)
    #expect(burst.zeroed >= due(burst), "\(burst)")
    let segment = try #require(Support.activeSegment(on: disk))
    let bytes = try #require(disk.contents(segment))
    #expect(bytes[Int(burst.end)..<Int(burst.zeroed)].allSatisfy { $0 == 0 })
    #expect(try journal.records().map(\.payload) == Array(repeating: payload, count: 107))
    try journal.close()
    #expect(
      JournalZerosAhead.payOff(appended: 1 << 20, nanoseconds: 10_000_000, minimumRate: 16 << 20))
    #expect(
      !JournalZerosAhead.payOff(appended: 230_000, nanoseconds: 100_000_000, minimumRate: 16 << 20))
    #expect(
      JournalZerosAhead.payOff(
        appended: 16 << 20, nanoseconds: 1_000_000_000, minimumRate: 16 << 20))
    #expect(
      !JournalZerosAhead.payOff(
        appended: (16 << 20) - 1, nanoseconds: 1_000_000_000, minimumRate: 16 << 20))
    #expect(JournalZerosAhead.payOff(appended: 0, nanoseconds: 1_000_000_000, minimumRate: 0))
    #expect(JournalZerosAhead.payOff(appended: 0, nanoseconds: 0, minimumRate: 16 << 20))
    #expect(!JournalZerosAhead.payOff(appended: 10, nanoseconds: .max, minimumRate: 1))
  }

  @Test("each sync gives back the mapped pages below the synced end; nothing is lost by it")
  func syncReleasesWrittenPages() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .everyRecords(50), segmentSize: 1 << 20)
    options.compressSealedSegments = false
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let payload = [UInt8](repeating: 0x42, count: 200)
    var released: [UInt64] = []
    for round in 0..<4 {
      for _ in 0..<50 { try journal.append(payload) }
      // The 50th append synced: the pages wholly below the end it synced were given back.
      let (bound, end) = try journal.state.withLock { core in
        (try #require(core.active?.mapping).released, try #require(core.active?.end))
      }
      #expect(bound > 0, "round \(round)")
      #expect(bound % 4096 == 0 && bound <= end, "round \(round): \(bound) of \(end)")
      released.append(bound)
    }
    #expect(released == released.sorted() && Set(released).count == released.count)
    let records = try Journal.open(
      directory: directory, fileSystem: disk.crashedDurableOnly(), options: options
    ).records()
    #expect(records.count == 200)
    #expect(records.allSatisfy { $0.payload == payload })
    try journal.close()
  }
}
