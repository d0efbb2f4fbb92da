import Testing

@testable import StoicStore
@testable import StoicTesting

/// The compressed segment format (version 2): round trips, and every kind of damage (a bit
/// flip anywhere, a truncation, an unknown version, a block whose checksum holds but whose
/// contents do not) refused with ``StoreError/Code/corrupt``, never a crash.
@Suite("Journal compressed segment format")
struct JournalCompressedFormatTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  /// Payloads that exercise the block coding: empty ones, repeats, shared starts and ends,
  /// noise, and (when `large` is given) one larger than a whole block.
  static func payloads(count: Int, large: Int? = nil) -> [[UInt8]] {
    var random: UInt64 = 0x00C0_FFEE
    func next() -> UInt64 {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return random >> 33
    }
    var result: [[UInt8]] = []
    for index in 0..<count {
      switch index % 7 {
      case 0: result.append([])
      case 1: result.append(result.last ?? [1])
      case 2:
        result.append(Array("{\"ts\":\"2026-11-29T10:00:\(index)\",\"msg\":\"hello\"}\n".utf8))
      case 3:
        result.append(Array("{\"ts\":\"2026-11-29T10:00:\(index + 1)\",\"msg\":\"hello\"}\n".utf8))
      case 4: result.append((0..<Int(next() % 300)).map { _ in UInt8(truncatingIfNeeded: next()) })
      case 5: result.append(Array((result.last ?? []).prefix(5)) + [7, 7, 7])
      default: result.append([UInt8(truncatingIfNeeded: index)])
      }
    }
    if let large {
      result.insert(
        (0..<large).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }, at: count / 2)
    }
    return result
  }

  /// Encodes `payloads` as one block and decodes it again.
  static func roundTrip(_ payloads: [[UInt8]], first: UInt64 = 5) -> [[UInt8]]? {
    var encoder = JournalRecordBlock.Encoder()
    for (index, payload) in payloads.enumerated() {
      payload.withUnsafeBytes { encoder.append(sequence: first + UInt64(index), payload: $0) }
    }
    let raw = encoder.columns() + encoder.rests
    var out: [UInt8] = []
    var ends: [Int] = []
    var columns: [Int] = []
    let decoded = raw.withUnsafeBytes {
      JournalRecordBlock.decode(
        $0, maxRecordSize: 1 << 20, payloadLimit: 16 << 20, payloads: &out, ends: &ends,
        columns: &columns)
    }
    guard let decoded, decoded.first == first, decoded.count == payloads.count else { return nil }
    var start = 0
    return ends.map { end in
      defer { start = end }
      return Array(out[start..<end])
    }
  }

  @Test("a record block decodes to exactly the payloads it was built from")
  func recordBlockRoundTrip() throws {
    let payloads = Self.payloads(count: 500)
    #expect(Self.roundTrip(payloads) == payloads)
    #expect(Self.roundTrip([[]]) == [[]])
    #expect(Self.roundTrip([[1, 2, 3], [1, 2, 3], [1, 2], [1, 2, 3, 4], [9, 2, 3, 4]]) != nil)
    #expect(
      Self.roundTrip([[1, 2, 3], [1, 2, 3], [1, 2], [1, 2, 3, 4], [9, 2, 3, 4]])
        == [[1, 2, 3], [1, 2, 3], [1, 2], [1, 2, 3, 4], [9, 2, 3, 4]])
  }

  @Test("any change to a record block's raw bytes is refused or decodes within its bounds")
  func recordBlockStructureChecks() throws {
    let payloads = Self.payloads(count: 40)
    var encoder = JournalRecordBlock.Encoder()
    for (index, payload) in payloads.enumerated() {
      payload.withUnsafeBytes { encoder.append(sequence: 1 + UInt64(index), payload: $0) }
    }
    let raw = encoder.columns() + encoder.rests
    // Changes of the count or of a rest length always break the structure (the rests no longer
    // fill the block exactly); changes elsewhere may decode to other, still bounded, records
    // (the block CRC is what catches those).
    let count = payloads.count
    let restColumn = 16 + count * (Int(raw[12]) + Int(raw[13]))
    let mustRefuse = Set(8..<12).union(restColumn..<(restColumn + count * Int(raw[14])))
    #expect(mustRefuse.count > count)
    var refused = 0
    for position in 0..<raw.count {
      for value: UInt8 in [0, 1, 0x7F, 0xFF, raw[position] ^ 0x10] where value != raw[position] {
        var changed = raw
        changed[position] = value
        var out: [UInt8] = []
        var ends: [Int] = []
        var columns: [Int] = []
        let maxRecordSize = 400
        let decoded = changed.withUnsafeBytes {
          JournalRecordBlock.decode(
            $0, maxRecordSize: maxRecordSize, payloadLimit: 64 << 10, payloads: &out,
            ends: &ends, columns: &columns)
        }
        guard let decoded else {
          refused += 1
          continue
        }
        #expect(!mustRefuse.contains(position), "a change at \(position) was accepted")
        // Accepted: it is a well-formed block, within every bound.
        #expect(decoded.count == ends.count)
        var start = 0
        for end in ends {
          #expect(end >= start && end - start <= maxRecordSize && end <= out.count)
          start = end
        }
      }
    }
    #expect(refused >= mustRefuse.count)
    // Cut short or extended by a byte, the rests no longer fill the block.
    for cut in [raw.count - 1, raw.count + 1] {
      let changed = cut < raw.count ? Array(raw.prefix(cut)) : raw + [0]
      var out: [UInt8] = []
      var ends: [Int] = []
      var columns: [Int] = []
      let decoded = changed.withUnsafeBytes {
        JournalRecordBlock.decode(
          $0, maxRecordSize: 400, payloadLimit: 64 << 10, payloads: &out, ends: &ends,
          columns: &columns)
      }
      #expect(decoded == nil)
    }
  }

  @Test("sealed segments round-trip through 1 MiB blocks, a record larger than a block included")
  func segmentRoundTrip() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(
      syncPolicy: .never, segmentSize: 1536 << 10, backgroundMaintenance: false)
    options.maxRecordSize = 2 << 20
    let payloads =
      Self.payloads(count: 9000, large: JournalCompressedSegment.blockTarget + 4000)
      + (0..<4000).map { index in Array("line \(index) of a log, always much alike\n".utf8) }
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    for start in stride(from: 0, to: payloads.count, by: 500) {
      try journal.append(batch: Array(payloads[start..<min(payloads.count, start + 500)]))
    }
    try journal.sync()
    try journal.close()
    let compressed = disk.allPaths().filter { $0.hasSuffix(".zst") }
    #expect(compressed.count >= 1)
    let reopened = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? reopened.close() }
    let records = try reopened.records()
    #expect(records.map(\.payload) == payloads)
    #expect(records.map(\.sequence) == Array(1...UInt64(payloads.count)))
    var borrowed: [[UInt8]] = []
    try reopened.forEachRecordBorrowing(from: 8000) { (_, payload) throws(StoreError) in
      borrowed.append(Array(payload))
    }
    #expect(borrowed == Array(payloads[7999...]))
  }

  /// A journal whose first segment is a small `.zst`, the disk settled; returns its path.
  static func smallCompressedJournal(_ disk: SimulatedFileSystem, earlierNames: Bool = false)
    throws -> (String, [JournalRecord])
  {
    var options = Support.smallSegments()
    options.segmentSize = 300
    try JournalCrashTests.prepare(disk, 1...30, options: options)
    // Under names of the earlier form (recording no summary), a forged segment of another size
    // is taken for what it says it is: its blocks and trailer are what is checked.
    if earlierNames { try Support.earlierFormNames(on: disk) }
    let compressed = try #require(disk.allPaths().sorted().first { $0.hasSuffix(".zst") })
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    return (compressed, try journal.records())
  }

  /// Opens and reads the journal on `disk`: the records, or the error.
  static func read(_ disk: SimulatedFileSystem) -> Result<[JournalRecord], StoreError> {
    var options = Support.smallSegments()
    options.segmentSize = 300
    do throws(StoreError) {
      let journal = try Journal.open(
        directory: JournalTestSupport.directory, fileSystem: disk, options: options)
      defer { try? journal.close() }
      return .success(try journal.records())
    } catch {
      return .failure(error)
    }
  }

  @Test("every single-bit flip of a compressed segment is refused as corrupt or reads identically")
  func everyBitFlip() throws {
    let disk = SimulatedFileSystem()
    let (path, expected) = try Self.smallCompressedJournal(disk)
    let base = disk.crashedDurableOnly()
    let original = try #require(base.contents(path))
    #expect(original.count > 40)
    var refused = 0
    for index in 0..<original.count {
      for bit in 0..<8 {
        let copy = base.copy()
        var bytes = original
        bytes[index] ^= UInt8(1 << bit)
        copy.setDurableContents(path, bytes)
        switch Self.read(copy) {
        case .success(let records):
          #expect(records == expected, "flip of bit \(bit) at \(index) changed the records")
        case .failure(let error):
          #expect(error.code == .corrupt, "flip of bit \(bit) at \(index): \(error)")
          refused += 1
        }
      }
    }
    #expect(refused > 0)
  }

  @Test("a truncated compressed segment is refused as corrupt")
  func truncation() throws {
    let disk = SimulatedFileSystem()
    let (path, _) = try Self.smallCompressedJournal(disk)
    let base = disk.crashedDurableOnly()
    let original = try #require(base.contents(path))
    for length in 0..<original.count {
      let copy = base.copy()
      copy.setDurableContents(path, Array(original.prefix(length)))
      switch Self.read(copy) {
      case .success: Issue.record("a segment cut to \(length) bytes was accepted")
      case .failure(let error): #expect(error.code == .corrupt)
      }
    }
  }

  @Test("a compressed segment of another format version is refused as corrupt, naming it")
  func unknownVersion() throws {
    let disk = SimulatedFileSystem()
    let (path, _) = try Self.smallCompressedJournal(disk)
    let base = disk.crashedDurableOnly()
    let original = try #require(base.contents(path))
    for version: UInt8 in [1, 3, 0xFF] {
      var bytes = original
      bytes[4] = version
      // A valid header CRC: only the version is wrong.
      let crc = CRC32C.checksum(Array(bytes[0..<16]))
      for byte in 0..<4 { bytes[16 + byte] = UInt8(truncatingIfNeeded: crc >> (8 * byte)) }
      let copy = base.copy()
      copy.setDurableContents(path, bytes)
      switch Self.read(copy) {
      case .success: Issue.record("version \(version) was accepted")
      case .failure(let error):
        #expect(error.code == .corrupt)
        #expect(error.message.contains("version \(version)"))
      }
    }
  }

  @Test("a block whose checksum holds but which decompresses to another size is refused")
  func forgedBlockSize() throws {
    let disk = SimulatedFileSystem()
    let (path, _) = try Self.smallCompressedJournal(disk, earlierNames: true)
    let base = disk.crashedDurableOnly()
    let first = try #require(JournalFileNames.parseSegment(StorePath.name(of: path))?.first)
    // The forged segment holds as many records as the real one (its trailer's count), so that
    // the segment after it still starts right after its last record.
    let count = Array(try #require(base.contents(path)).suffix(16)).loadLittleEndian(
      UInt64.self, at: JournalCompressedSegment.TrailerOffset.records)
    var encoder = JournalRecordBlock.Encoder()
    for sequence in first..<(first + count) {
      Support.payload(sequence).withUnsafeBytes { encoder.append(sequence: sequence, payload: $0) }
    }
    let raw = encoder.columns() + encoder.rests
    for claimed in [raw.count - 1, raw.count + 1] {
      var bytes = JournalCompressedSegment.header(segmentFirst: first)
      bytes += JournalCompressedSegment.block(
        kind: JournalCompressedSegment.kindZstd, rawLength: claimed,
        stored: try Zstd.compress(raw, level: 1))
      bytes += JournalCompressedSegment.trailer(records: count, lastSequence: first + count - 1)
      let copy = base.copy()
      copy.setDurableContents(path, bytes)
      switch Self.read(copy) {
      case .success: Issue.record("a block claiming \(claimed) of \(raw.count) bytes was accepted")
      case .failure(let error):
        #expect(error.code == .corrupt)
        #expect(error.message.contains("decompress"))
      }
    }
  }

  @Test(
    "a trailer whose reserved bytes are not zero is refused by open (under a name recording no summary), as by the block reader"
  )
  func trailerReservedBytes() throws {
    let disk = SimulatedFileSystem()
    let (path, _) = try Self.smallCompressedJournal(disk, earlierNames: true)
    let base = disk.crashedDurableOnly()
    let original = try #require(base.contents(path))
    let start = original.count - JournalCompressedSegment.trailerSize
    let offsets = JournalCompressedSegment.BlockOffset.self
    for reserved in offsets.reserved..<offsets.rawLength {
      var bytes = original
      bytes[start + reserved] = 0x01
      // A valid checksum: only the reserved byte is wrong.
      let header = Array(bytes[start..<(start + JournalCompressedSegment.blockHeaderSize)])
      let stored = Array(bytes[(start + JournalCompressedSegment.blockHeaderSize)...])
      bytes.storeLittleEndian(
        JournalCompressedSegment.blockChecksum(header: header, stored: stored),
        at: start + offsets.checksum)
      let copy = base.copy()
      copy.setDurableContents(path, bytes)
      var options = Support.smallSegments()
      options.segmentSize = 300
      // Open checks only the segment's ends: it must refuse the trailer itself.
      #expect(throws: StoreError.self, "reserved byte \(reserved) accepted by open") {
        try Journal.open(
          directory: JournalTestSupport.directory, fileSystem: copy, options: options
        ).close()
      }
      switch Self.read(copy) {
      case .success: Issue.record("reserved byte \(reserved) was accepted")
      case .failure(let error): #expect(error.code == .corrupt, "\(error)")
      }
      let trailer = Array(bytes[start...])
      #expect(throws: JournalCompressedSegment.Damage.self) {
        try JournalCompressedSegment.decodeTrailerBlock(trailer, at: UInt64(start))
      }
      #expect(throws: JournalCompressedSegment.Damage.self) {
        try JournalCompressedSegment.decodeBlockHeader(header, at: UInt64(start), limit: 1 << 20)
      }
    }
    // The unchanged trailer decodes, with the values the writer stored.
    let trailer = try JournalCompressedSegment.decodeTrailerBlock(
      Array(original[start...]), at: UInt64(start))
    #expect(trailer.records > 0)
  }

  @Test(
    "a compressed segment that is not what its name records is refused when read, and set aside by the read of a salvaging journal"
  )
  func nameNotTheSegment() throws {
    let disk = SimulatedFileSystem()
    let (path, expected) = try Self.smallCompressedJournal(disk)
    let name = StorePath.name(of: path)
    let parsed = try #require(JournalFileNames.parseSegment(name))
    let summary = try #require(parsed.summary)
    #expect(summary.records > 1)
    #expect(UInt64(try #require(disk.contents(path)).count) == summary.bytes)
    #expect(expected.map(\.sequence) == Array(1...30))
    var wrongSize = summary
    wrongSize.bytes += 1
    var fewerRecords = summary
    fewerRecords.records -= 1
    for wrong in [wrongSize, fewerRecords] {
      let copy = disk.crashedDurableOnly()
      let lying = JournalFileNames.compressedSegment(first: parsed.first, summary: wrong)
      try copy.rename(path, to: Support.directory + "/" + lying)
      try copy.syncDirectory(Support.directory)
      var options = Support.smallSegments()
      options.segmentSize = 300
      let journal = try Journal.open(
        directory: Support.directory, fileSystem: copy, options: options)
      let error = #expect(throws: StoreError.self, "\(wrong) accepted") { try journal.records() }
      #expect(error?.code == .corrupt)
      #expect(error?.message.contains("its name records") == true, "\(String(describing: error))")
      try journal.close()
      // Salvaging, the read that finds it sets it aside and reads on.
      options.salvage = true
      let salvaged = try Journal.open(
        directory: Support.directory, fileSystem: copy, options: options)
      // Found before any of its records is handed out: no read returns them.
      #expect(try salvaged.records().map(\.sequence) == Array((summary.end + 1)...30))
      #expect(try salvaged.records().map(\.sequence) == Array((summary.end + 1)...30))
      #expect(copy.contents(Support.directory + "/" + lying + ".corrupt-0") != nil)
      try salvaged.close()
    }
  }

  @Test(
    "two compressed files of one first sequence: the later in name order is set aside, every record kept, and the next open agrees"
  )
  func twoCompressedFilesOfOneSegment() throws {
    let disk = SimulatedFileSystem()
    let (path, expected) = try Self.smallCompressedJournal(disk)
    let first = try #require(JournalFileNames.parseSegment(StorePath.name(of: path))?.first)
    let copy = disk.crashedDurableOnly()
    // The same bytes under the name's earlier form, which sorts after the current one.
    let earlier =
      Support.directory + "/" + JournalFileNames.segment(first: first, kind: .compressed)
    #expect(StorePath.name(of: path) < StorePath.name(of: earlier))
    copy.setDurableContents(earlier, try #require(copy.contents(path)))
    var options = Support.smallSegments()
    options.segmentSize = 300
    for round in 0..<2 {
      let journal = try Journal.open(
        directory: Support.directory, fileSystem: copy, options: options)
      #expect(journal.recovery.quarantinedFiles == (round == 0 ? [earlier + ".corrupt-0"] : []))
      #expect(try journal.records() == expected)
      try journal.close()
    }
    #expect(copy.contents(path) != nil)
    #expect(copy.contents(earlier) == nil)
  }
}
