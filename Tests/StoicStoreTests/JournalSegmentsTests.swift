import Testing

@testable import StoicStore
@testable import StoicTesting

/// `Journal.segments()`: the segments in order, each with its first sequence, state and bytes,
/// as a quota needs them.
@Suite("Journal segments list")
struct JournalSegmentsTests {
  typealias Support = JournalTestSupport

  @Test("a new journal has one empty active segment; appends grow it by their frames")
  func activeSegment() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: Support.directory, fileSystem: disk, options: JournalOptions(syncPolicy: .never))
    #expect(try journal.segments() == [JournalSegmentInfo(first: 1, state: .active, bytes: 0)])
    var expected = 0
    for sequence in UInt64(1)...5 {
      try journal.append(Support.payload(sequence))
      expected += Journal.recordFrameSize(payloadCount: Support.payload(sequence).count)
    }
    #expect(
      try journal.segments() == [
        JournalSegmentInfo(first: 1, state: .active, bytes: UInt64(expected))
      ])
    #expect(Journal.recordFrameSize(payloadCount: 10) == 26)
    #expect(Journal.syncMarkerSize == 40)
    try journal.close()
    #expect(throws: StoreError.self) { try journal.segments() }
  }

  @Test("rolled segments are listed in order, sealed or compressed, with their sizes on disk")
  func rolledSegments() throws {
    for compress in [true, false] {
      let disk = SimulatedFileSystem()
      let journal = try Journal.open(
        directory: Support.directory, fileSystem: disk,
        options: Support.smallSegments(compress: compress))
      for sequence in UInt64(1)...30 { try journal.append(Support.payload(sequence)) }
      let segments = try journal.segments()
      #expect(segments.count > 3)
      #expect(segments.map(\.first) == segments.map(\.first).sorted())
      #expect(segments.first?.first == 1)
      #expect(segments.last?.state == .active)
      for segment in segments.dropLast() {
        #expect(segment.isSealed)
        #expect(segment.state == (compress ? .compressed : .sealed))
        let path = try #require(
          Support.segmentPath(
            on: disk, first: segment.first, kind: compress ? .compressed : .log))
        #expect(disk.contents(path)?.count == Int(segment.bytes))
      }
      // Dropping through the end of the second segment removes the first two.
      let through = segments[2].first - 1
      try journal.dropThrough(through)
      #expect(try journal.segments().first?.first == segments[2].first)
      try journal.close()
    }
  }

  @Test(
    "compressed segments' sizes are known, after their compression and after an open: listing them asks the disk for none"
  )
  func compressedSizesKnown() throws {
    let disk = SimulatedFileSystem()
    let metered = MeteredFileSystem(disk)
    let options = Support.smallSegments(compress: true)
    let journal = try Journal.open(
      directory: Support.directory, fileSystem: metered, options: options)
    for sequence in UInt64(1)...30 { try journal.append(Support.payload(sequence)) }
    func check(_ journal: Journal) throws {
      _ = metered.reset()
      let segments = try journal.segments()
      #expect(metered.counts.sizeLookups == 0)
      let sealed = segments.dropLast()
      #expect(sealed.count > 3 && sealed.allSatisfy { $0.state == .compressed })
      for segment in sealed {
        let path = try #require(
          Support.segmentPath(on: disk, first: segment.first, kind: .compressed))
        #expect(disk.contents(path)?.count == Int(segment.bytes))
      }
    }
    try check(journal)
    try journal.close()
    let reopened = try Journal.open(
      directory: Support.directory, fileSystem: metered, options: options)
    try check(reopened)
    try reopened.close()
  }

  /// Opens of a closed journal holding `records` records in small compressed segments (their
  /// names of the earlier form, recording no summary, if `earlierNames`): the files the open
  /// opened, the segments and the records read back.
  static func reopen(records: UInt64, earlierNames: Bool) throws -> (
    opens: UInt64, segments: Int, read: [UInt64]
  ) {
    let disk = SimulatedFileSystem()
    let options = Support.smallSegments(compress: true)
    let journal = try Journal.open(directory: Support.directory, fileSystem: disk, options: options)
    for sequence in UInt64(1)...records { try journal.append(Support.payload(sequence)) }
    try journal.close()
    if earlierNames { try Support.earlierFormNames(on: disk) }
    let metered = MeteredFileSystem(disk)
    let reopened = try Journal.open(
      directory: Support.directory, fileSystem: metered, options: options)
    defer { try? reopened.close() }
    let opens = metered.counts.opens
    let segments = try reopened.segments()
    #expect(segments.dropLast().allSatisfy { $0.state == .compressed })
    return (opens, segments.count, try reopened.records().map(\.sequence))
  }

  @Test(
    "an open of compressed segments whose names record their summary opens none of them: it costs the same for 30 records as for 300"
  )
  func openDoesNotGrowWithCompressedSegments() throws {
    let small = try Self.reopen(records: 30, earlierNames: false)
    let large = try Self.reopen(records: 300, earlierNames: false)
    #expect(large.segments > 5 * small.segments)
    #expect(large.opens == small.opens)
    #expect(small.read == Array(1...30))
    #expect(large.read == Array(1...300))
    // Names of the earlier form: the open checks each segment's ends, a file open each.
    let earlier = try Self.reopen(records: 300, earlierNames: true)
    #expect(earlier.read == Array(1...300))
    #expect(earlier.opens >= large.opens + UInt64(large.segments - 1))
  }
}
