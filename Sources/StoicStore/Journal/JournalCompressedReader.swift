/// Reads the records of a compressed segment one block at a time, checking every block's CRC
/// before decompressing it and every frame inside it.
struct JournalCompressedReader {
  var reader: JournalWindowReader
  let path: String
  let segmentFirst: UInt64
  let maxRecordSize: Int
  /// The largest raw or stored block accepted: one window or one frame, whichever is larger.
  let blockLimit: Int
  var offset: UInt64 = 0
  var previousSequence: UInt64
  private var block: [UInt8] = []
  private let decompressor = Zstd.Decompressor()
  private var blockIndex = 0
  /// Records read so far.
  private(set) var records: UInt64 = 0
  private(set) var finished = false
  /// The most bytes held at once (window buffer plus the current block).
  private(set) var peakBytes = 0

  init(
    reader: JournalWindowReader, path: String, segmentFirst: UInt64, previousSequence: UInt64,
    maxRecordSize: Int
  ) {
    self.reader = reader
    self.path = path
    self.segmentFirst = segmentFirst
    self.previousSequence = previousSequence
    self.maxRecordSize = maxRecordSize
    self.blockLimit = max(reader.window, JournalFrame.recordSize(payloadCount: maxRecordSize))
  }

  private func corrupt(_ why: String, at position: UInt64) -> StoreError {
    StoreError(
      .corrupt, "compressed journal segment is damaged at offset \(position): \(why)",
      path: path, cause: JournalDamage(path: path, offset: position, length: 0))
  }

  /// The next record, or `nil` after the trailer.
  /// - Throws: ``StoreError/Code/corrupt`` for any block or frame that fails to check.
  mutating func next() throws(StoreError) -> JournalRecord? {
    guard let (sequence, start, end) = try nextFrame() else { return nil }
    return JournalRecord(sequence: sequence, payload: Array(block[start..<end]))
  }

  /// Calls `body` with the next record's sequence and payload, borrowed from the current block
  /// (valid only inside `body`); returns `false` after the trailer.
  /// - Throws: As ``next()``, and what `body` throws.
  mutating func nextBorrowing(
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> Bool {
    guard let (sequence, start, end) = try nextFrame() else { return false }
    try block.withStoreBytes { (all) throws(StoreError) in
      try body(sequence, UnsafeRawBufferPointer(rebasing: all[start..<end]))
    }
    return true
  }

  /// Checks the next frame; returns its sequence and where its payload lies in ``block``.
  private mutating func nextFrame() throws(StoreError) -> (UInt64, Int, Int)? {
    if offset == 0 { try readHeader() }
    while blockIndex >= block.count {
      if finished { return nil }
      try readBlock()
    }
    let available = UInt64(block.count - blockIndex)
    let decoded = block.withUnsafeBytes { all in
      JournalFrame.decode(
        UnsafeRawBufferPointer(rebasing: all[blockIndex...]), position: 0, available: available,
        segmentFirst: segmentFirst, maxRecordSize: maxRecordSize)
    }
    guard case .record(let sequence, let size) = decoded, sequence > previousSequence else {
      throw corrupt("a frame inside a block does not check", at: offset)
    }
    let start = blockIndex + JournalFrame.headerSize
    blockIndex += size
    previousSequence = sequence
    records += 1
    return (sequence, start, blockIndex)
  }

  private mutating func readHeader() throws(StoreError) {
    let header = try reader.bytes(at: 0, count: JournalCompressedSegment.headerSize)
    guard header.count == JournalCompressedSegment.headerSize,
      Array(header[0..<4]) == JournalCompressedSegment.magic, header[4] == 1,
      JournalFrame.loadLE64(header, 8) == segmentFirst,
      CRC32C.checksum(Array(header[0..<16])) == JournalFrame.loadLE32(header, 16)
    else { throw corrupt("bad segment header", at: 0) }
    offset = UInt64(JournalCompressedSegment.headerSize)
  }

  private mutating func readBlock() throws(StoreError) {
    let headerSize = JournalCompressedSegment.blockHeaderSize
    guard offset + UInt64(headerSize) <= reader.fileSize else {
      throw corrupt("the segment ends without its trailer", at: offset)
    }
    let header = try reader.bytes(at: offset, count: headerSize)
    let kind = header[0]
    let rawLength = Int(JournalFrame.loadLE32(header, 4))
    let storedLength = Int(JournalFrame.loadLE32(header, 8))
    let limit = max(blockLimit, JournalCompressedSegment.maximumBlock)
    guard rawLength <= limit, storedLength <= limit,
      offset + UInt64(headerSize + storedLength) <= reader.fileSize
    else { throw corrupt("block lengths are out of range", at: offset) }
    let stored = try reader.bytes(at: offset + UInt64(headerSize), count: storedLength)
    let crc = CRC32C.checksum(stored, continuing: CRC32C.checksum(Array(header[0..<12])))
    guard stored.count == storedLength, crc == JournalFrame.loadLE32(header, 12) else {
      throw corrupt("block checksum mismatch", at: offset)
    }
    let blockStart = offset
    offset += UInt64(headerSize + storedLength)
    switch kind {
    case JournalCompressedSegment.kindRaw:
      guard rawLength == storedLength else { throw corrupt("raw block length", at: blockStart) }
      block = stored
    case JournalCompressedSegment.kindZstd:
      do throws(StoreError) {
        try stored.withStoreBytes { (input) throws(StoreError) in
          try decompressor.decompress(input, size: rawLength, into: &block)
        }
      } catch {
        block = []
        throw corrupt("block does not decompress to its size (\(error.message))", at: blockStart)
      }
    case JournalCompressedSegment.kindTrailer:
      guard storedLength == 16, offset == reader.fileSize,
        JournalFrame.loadLE64(stored, 0) == records,
        records == 0 || JournalFrame.loadLE64(stored, 8) == previousSequence
      else { throw corrupt("trailer does not match the blocks", at: blockStart) }
      block = []
      finished = true
    default:
      throw corrupt("unknown block kind \(kind)", at: blockStart)
    }
    blockIndex = 0
    peakBytes = max(peakBytes, reader.peakBytes + block.count)
  }
}
