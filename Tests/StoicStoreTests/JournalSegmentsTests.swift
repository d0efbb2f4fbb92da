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
        let name =
          "journal-" + String(repeating: "0", count: 16 - String(segment.first, radix: 16).count)
          + String(segment.first, radix: 16) + (compress ? ".zst" : ".log")
        #expect(disk.contents(Support.directory + "/" + name)?.count == Int(segment.bytes))
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
        let name = JournalFileNames.segment(first: segment.first, kind: .compressed)
        #expect(disk.contents(Support.directory + "/" + name)?.count == Int(segment.bytes))
      }
    }
    try check(journal)
    try journal.close()
    let reopened = try Journal.open(
      directory: Support.directory, fileSystem: metered, options: options)
    try check(reopened)
    try reopened.close()
  }
}
