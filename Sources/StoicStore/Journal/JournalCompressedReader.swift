/// Reads the records of a compressed segment one block at a time, checking every block's CRC
/// before decompressing it and the structure of what it decompresses to (exact length, every
/// record's lengths, sequences that increase) before handing out any record of it.
struct JournalCompressedReader {
  var reader: JournalWindowReader
  let path: String
  let segmentFirst: UInt64
  let maxRecordSize: Int
  /// The largest raw or stored block, and the most payload bytes of one block, accepted.
  let blockLimit: Int
  var offset: UInt64 = 0
  var previousSequence: UInt64
  private var stored: [UInt8] = []
  /// Decompressed block bytes; only grows (its first bytes hold the current block).
  private var raw: [UInt8] = []
  /// The current block's payloads, back to back; record `i` ends at `ends[i]`. Only grows.
  private var payloads: [UInt8] = []
  private var ends: [Int] = []
  private var columns: [Int] = []
  private var blockFirst: UInt64 = 0
  private var recordIndex = 0
  private let decompressor = Zstd.Decompressor()
  /// Records read so far.
  private(set) var records: UInt64 = 0
  private(set) var finished = false
  /// The most bytes held at once (window buffer plus the current block's buffers).
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
    self.blockLimit = max(
      JournalCompressedSegment.maximumBlock,
      JournalRecordBlock.headerSize + 12 + JournalFrame.recordSize(payloadCount: maxRecordSize))
  }

  private func corrupt(_ why: String, at position: UInt64) -> StoreError {
    StoreError(
      .corrupt, "compressed journal segment is damaged at offset \(position): \(why)",
      path: path, cause: JournalDamage(path: path, offset: position, length: 0))
  }

  /// The next record, or `nil` after the trailer.
  /// - Throws: ``StoreError/Code/corrupt`` for any block that fails to check.
  mutating func next() throws(StoreError) -> JournalRecord? {
    guard let (sequence, start, end) = try nextRecord() else { return nil }
    return JournalRecord(sequence: sequence, payload: Array(payloads[start..<end]))
  }

  /// Calls `body` with the next record's sequence and payload, borrowed from the current block
  /// (valid only inside `body`); returns `false` after the trailer.
  /// - Throws: As ``next()``, and what `body` throws.
  mutating func nextBorrowing(
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> Bool {
    guard let (sequence, start, end) = try nextRecord() else { return false }
    try payloads.withStoreBytes { (all) throws(StoreError) in
      try body(sequence, UnsafeRawBufferPointer(rebasing: all[start..<end]))
    }
    return true
  }

  /// Calls `body` with every remaining record of the current block (reading the next block
  /// first if the current one is used up), each payload borrowed as in ``nextBorrowing(_:)``;
  /// returns `false` after the trailer.
  /// - Throws: As ``next()``, and what `body` throws.
  mutating func nextBlockBorrowing(
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> Bool {
    guard try advance() else { return false }
    let first = blockFirst
    let from = recordIndex
    let count = ends.count
    let ends = self.ends
    recordIndex = count
    records += UInt64(count - from)
    previousSequence = first + UInt64(count - 1)
    try payloads.withStoreBytes { (all) throws(StoreError) in
      var start = from == 0 ? 0 : ends[from - 1]
      for index in from..<count {
        let end = ends[index]
        try body(first + UInt64(index), UnsafeRawBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
    return true
  }

  /// Moves to the next record; returns its sequence and where its payload lies in
  /// ``payloads``.
  private mutating func nextRecord() throws(StoreError) -> (UInt64, Int, Int)? {
    guard try advance() else { return nil }
    let start = recordIndex == 0 ? 0 : ends[recordIndex - 1]
    let end = ends[recordIndex]
    let sequence = blockFirst + UInt64(recordIndex)
    recordIndex += 1
    previousSequence = sequence
    records += 1
    return (sequence, start, end)
  }

  /// Makes a record available in the current block; `false` after the trailer.
  private mutating func advance() throws(StoreError) -> Bool {
    if offset == 0 { try readHeader() }
    while recordIndex >= ends.count {
      if finished { return false }
      try readBlock()
    }
    return true
  }

  private mutating func readHeader() throws(StoreError) {
    let header = try reader.bytes(at: 0, count: JournalCompressedSegment.headerSize)
    guard header.count == JournalCompressedSegment.headerSize,
      Array(header[0..<4]) == JournalCompressedSegment.magic,
      CRC32C.checksum(Array(header[0..<16])) == JournalFrame.loadLE32(header, 16)
    else { throw corrupt("bad segment header", at: 0) }
    guard header[4] == JournalCompressedSegment.version else {
      throw corrupt(
        "unsupported format version \(header[4]) (this reader reads version "
          + "\(JournalCompressedSegment.version))", at: 4)
    }
    guard JournalFrame.loadLE64(header, 8) == segmentFirst else {
      throw corrupt("the header names another segment", at: 8)
    }
    offset = UInt64(JournalCompressedSegment.headerSize)
  }

  private mutating func readBlock() throws(StoreError) {
    let headerSize = JournalCompressedSegment.blockHeaderSize
    guard offset + UInt64(headerSize) <= reader.fileSize else {
      throw corrupt("the segment ends without its trailer", at: offset)
    }
    let header = try reader.bytes(at: offset, count: headerSize)
    guard header.count == headerSize else {
      throw corrupt("the segment ends without its trailer", at: offset)
    }
    let kind = header[0]
    let rawLength = Int(JournalFrame.loadLE32(header, 4))
    let storedLength = Int(JournalFrame.loadLE32(header, 8))
    guard header[1] == 0, header[2] == 0, header[3] == 0, rawLength <= blockLimit,
      storedLength <= blockLimit, offset + UInt64(headerSize + storedLength) <= reader.fileSize
    else { throw corrupt("block lengths are out of range", at: offset) }
    try reader.read(at: offset + UInt64(headerSize), count: storedLength, into: &stored)
    let crc = CRC32C.checksum(stored, continuing: CRC32C.checksum(Array(header[0..<12])))
    guard stored.count == storedLength, crc == JournalFrame.loadLE32(header, 12) else {
      throw corrupt("block checksum mismatch", at: offset)
    }
    let blockStart = offset
    offset += UInt64(headerSize + storedLength)
    ends.removeAll(keepingCapacity: true)
    recordIndex = 0
    switch kind {
    case JournalCompressedSegment.kindRaw:
      guard rawLength == storedLength else { throw corrupt("raw block length", at: blockStart) }
      try decodeRecords(stored, count: rawLength, at: blockStart)
    case JournalCompressedSegment.kindZstd:
      if raw.count < rawLength {
        raw.append(contentsOf: repeatElement(0, count: rawLength - raw.count))
      }
      let decompressor = self.decompressor
      let outcome: Result<Void, StoreError> = stored.withUnsafeBytes { input in
        raw.withUnsafeMutableBytes { output in
          do throws(StoreError) {
            try decompressor.decompress(
              input, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<rawLength]))
            return .success(())
          } catch {
            return .failure(error)
          }
        }
      }
      if case .failure(let error) = outcome {
        throw corrupt("block does not decompress to its size (\(error.message))", at: blockStart)
      }
      try decodeRecords(raw, count: rawLength, at: blockStart)
    case JournalCompressedSegment.kindTrailer:
      guard storedLength == 16, rawLength == 16, offset == reader.fileSize,
        JournalFrame.loadLE64(stored, 0) == records,
        records == 0 || JournalFrame.loadLE64(stored, 8) == previousSequence
      else { throw corrupt("trailer does not match the blocks", at: blockStart) }
      finished = true
    default:
      throw corrupt("unknown block kind \(kind)", at: blockStart)
    }
    peakBytes = max(
      peakBytes,
      reader.peakBytes + stored.capacity + raw.capacity + payloads.capacity
        + ends.capacity * MemoryLayout<Int>.stride)
  }

  /// Checks a data block's raw bytes (the first `count` of `bytes`) and rebuilds its records
  /// into ``payloads``.
  private mutating func decodeRecords(_ bytes: [UInt8], count: Int, at blockStart: UInt64)
    throws(StoreError)
  {
    let maxRecordSize = self.maxRecordSize
    let blockLimit = self.blockLimit
    let decoded = bytes.withUnsafeBytes { input in
      JournalRecordBlock.decode(
        UnsafeRawBufferPointer(rebasing: input[0..<count]), maxRecordSize: maxRecordSize,
        payloadLimit: blockLimit, payloads: &payloads, ends: &ends, columns: &columns)
    }
    guard let decoded else {
      ends.removeAll(keepingCapacity: true)
      throw corrupt("block records do not check", at: blockStart)
    }
    guard decoded.first > previousSequence, decoded.first >= max(segmentFirst, 1),
      decoded.first <= JournalFrame.maximumSequence - UInt64(decoded.count - 1)
    else {
      ends.removeAll(keepingCapacity: true)
      throw corrupt("block sequences do not follow the ones before", at: blockStart)
    }
    blockFirst = decoded.first
  }
}
