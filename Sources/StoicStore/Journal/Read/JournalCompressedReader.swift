import Dispatch

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
  /// Whether ``nextBlockBorrowing(_:)`` decodes two blocks at once (one on a worker thread).
  let parallel: Bool
  var offset: UInt64 = 0
  var previousSequence: UInt64
  /// Two blocks: the one being handed out and the one decoded ahead of it.
  private let blocks: [JournalCompressedBlock]
  private var current = 0
  private var recordIndex = 0
  private var blockHeader: [UInt8] = []
  /// What was read (or failed) ahead of the current block, to be taken up after it.
  private var ahead: Ahead?
  /// Records read so far (with those before the block a read resumed at).
  private(set) var records: UInt64 = 0
  /// Every data block taken, once checked: where it starts and what comes before it (for
  /// ``JournalBlockIndex``).
  private(set) var checkedBlocks: [JournalBlockIndex.Entry] = []
  private(set) var finished = false
  /// The most bytes held at once (window buffer plus the blocks' buffers).
  private(set) var peakBytes = 0

  private enum Ahead {
    case block(Int)
    case trailer(records: UInt64, lastSequence: UInt64, position: UInt64)
    case failure(StoreError)
  }

  /// What one step of reading the block sequence found.
  private enum Step {
    case data
    case trailer(records: UInt64, lastSequence: UInt64, position: UInt64)
  }

  /// A reader of the segment from its header; or, with `resume`, from a block a read before
  /// checked (its header, and the blocks before it, were checked then).
  init(
    reader: JournalWindowReader, path: String, segmentFirst: UInt64, previousSequence: UInt64,
    maxRecordSize: Int, parallel: Bool = false, blocks: [JournalCompressedBlock]? = nil,
    resume: JournalBlockIndex.Entry? = nil
  ) {
    if let blocks, blocks.count == 2 {
      blocks[0].clear()
      blocks[1].clear()
      self.blocks = blocks
    } else {
      self.blocks = [JournalCompressedBlock(), JournalCompressedBlock()]
    }
    self.reader = reader
    self.path = path
    self.segmentFirst = segmentFirst
    self.previousSequence = previousSequence
    self.maxRecordSize = maxRecordSize
    self.parallel = parallel
    self.blockLimit = max(
      JournalCompressedSegment.maximumBlock,
      JournalRecordBlock.headerSize + 12 + JournalFrame.recordSize(payloadCount: maxRecordSize))
    if let resume, resume.position >= UInt64(JournalCompressedSegment.headerSize) {
      offset = resume.position
      self.previousSequence = resume.previousSequence
      records = resume.recordsBefore
    }
  }

  private func corrupt(_ why: String, at position: UInt64) -> StoreError {
    StoreError(
      .corrupt, "compressed journal segment is damaged at offset \(position): \(why)",
      path: path, cause: JournalDamage(path: path, offset: position, length: 0))
  }

  /// Runs a decoder of the segment's format, turning its refusal into this reader's error.
  private func decoding<T>(_ decode: () throws(JournalCompressedSegment.Damage) -> T)
    throws(StoreError) -> T
  {
    do throws(JournalCompressedSegment.Damage) {
      return try decode()
    } catch {
      throw corrupt(error.reason, at: error.offset)
    }
  }

  /// The next record, or `nil` after the trailer.
  /// - Throws: ``StoreError/Code/corrupt`` for any block that fails to check.
  mutating func next() throws(StoreError) -> JournalRecord? {
    guard let (sequence, start, end) = try nextRecord() else { return nil }
    return JournalRecord(sequence: sequence, payload: Array(blocks[current].payloads[start..<end]))
  }

  /// Calls `body` with every remaining record of the current block (reading the next block
  /// first if the current one is used up), each payload borrowed from the block (valid only inside `body`);
  /// returns `false` after the trailer. Records of a block are handed out only after the
  /// whole block checked, and in order: a damaged block is reported after the records before
  /// it.
  /// - Throws: As ``next()``, and what `body` throws.
  mutating func nextBlockBorrowing(
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> Bool {
    guard try advance(lookAhead: parallel) else { return false }
    let block = blocks[current]
    let first = block.first
    let from = recordIndex
    let count = block.ends.count
    recordIndex = count
    records += UInt64(count - from)
    previousSequence = first + UInt64(count - 1)
    try block.payloads.withStoreBytes { (all) throws(StoreError) in
      try block.ends.withUnsafeBufferPointer { (ends) throws(StoreError) in
        var start = from == 0 ? 0 : ends[from - 1]
        for index in from..<count {
          let end = ends[index]
          try body(first + UInt64(index), UnsafeRawBufferPointer(rebasing: all[start..<end]))
          start = end
        }
      }
    }
    return true
  }

  /// Moves to the next record; returns its sequence and where its payload lies in the current
  /// block's payloads.
  private mutating func nextRecord() throws(StoreError) -> (UInt64, Int, Int)? {
    guard try advance(lookAhead: false) else { return nil }
    let ends = blocks[current].ends
    let start = recordIndex == 0 ? 0 : ends[recordIndex - 1]
    let end = ends[recordIndex]
    let sequence = blocks[current].first + UInt64(recordIndex)
    recordIndex += 1
    previousSequence = sequence
    records += 1
    return (sequence, start, end)
  }

  /// Makes a record available in the current block; `false` after the trailer. With
  /// `lookAhead`, a data block is decoded together with the one after it (that one on a
  /// worker thread), which is then taken up once the current one is used up.
  private mutating func advance(lookAhead: Bool) throws(StoreError) -> Bool {
    if offset == 0 { try readHeader() }
    while recordIndex >= blocks[current].ends.count {
      if finished { return false }
      if let next = ahead {
        ahead = nil
        switch next {
        case .block(let index):
          try take(index)
        case .trailer(let count, let lastSequence, let position):
          try checkTrailer(records: count, lastSequence: lastSequence, at: position)
        case .failure(let error):
          throw error
        }
        continue
      }
      // Read into the block that last decoded the one at `offset`, if one did: its decode is
      // then taken back (JournalCompressedBlock) when the stored bytes read are the same.
      if blocks[current].rememberedPosition != offset,
        blocks[1 - current].rememberedPosition == offset
      {
        current = 1 - current
      }
      let block = blocks[current]
      switch try readBlock(into: block) {
      case .trailer(let count, let lastSequence, let position):
        try checkTrailer(records: count, lastSequence: lastSequence, at: position)
      case .data:
        let other = 1 - current
        var second: Step?
        if lookAhead {
          do throws(StoreError) {
            second = try readBlock(into: blocks[other])
          } catch {
            ahead = .failure(error)
          }
        }
        switch second {
        case .data:
          let worker = blocks[other]
          let (maxRecordSize, blockLimit) = (self.maxRecordSize, self.blockLimit)
          // The next block is decoded on the decode-ahead queue only if it is free at once: a
          // reader never waits behind other work there (it may run on a queue's thread itself).
          let done = DispatchSemaphore(value: 0)
          let decodingAhead = BlockingJobQueue.decodeAhead.pushIfIdle {
            worker.decode(maxRecordSize: maxRecordSize, payloadLimit: blockLimit)
            done.signal()
          }
          block.decode(maxRecordSize: maxRecordSize, payloadLimit: blockLimit)
          if decodingAhead {
            done.wait()
          } else {
            worker.decode(maxRecordSize: maxRecordSize, payloadLimit: blockLimit)
          }
          ahead = .block(other)
        case .trailer(let count, let lastSequence, let position):
          block.decode(maxRecordSize: maxRecordSize, payloadLimit: blockLimit)
          ahead = .trailer(records: count, lastSequence: lastSequence, position: position)
        case nil:
          block.decode(maxRecordSize: maxRecordSize, payloadLimit: blockLimit)
        }
        try take(current)
      }
    }
    return true
  }

  /// Makes the decoded block `index` the current one, after checking it decoded and that its
  /// sequences follow the ones before.
  private mutating func take(_ index: Int) throws(StoreError) {
    current = index
    recordIndex = 0
    let block = blocks[index]
    peakBytes = max(peakBytes, reader.peakBytes + blocks[0].heldBytes + blocks[1].heldBytes)
    if let failure = block.failure { throw corrupt(failure, at: block.position) }
    let count = UInt64(block.ends.count)
    guard count > 0, block.first > previousSequence, block.first >= max(segmentFirst, 1),
      block.first <= JournalFrame.maximumSequence - (count - 1)
    else {
      block.clear()
      throw corrupt("block sequences do not follow the ones before", at: block.position)
    }
    checkedBlocks.append(
      JournalBlockIndex.Entry(
        position: block.position, first: block.first, previousSequence: previousSequence,
        recordsBefore: records))
  }

  private mutating func checkTrailer(
    records count: UInt64, lastSequence: UInt64, at position: UInt64
  )
    throws(StoreError)
  {
    guard count == records, records == 0 || lastSequence == previousSequence else {
      throw corrupt("trailer does not match the blocks", at: position)
    }
    blocks[current].clear()
    finished = true
  }

  private mutating func readHeader() throws(StoreError) {
    let header = try reader.bytes(at: 0, count: JournalCompressedSegment.headerSize)
    try decoding { () throws(JournalCompressedSegment.Damage) in
      try JournalCompressedSegment.checkHeader(header, segmentFirst: segmentFirst)
    }
    offset = UInt64(JournalCompressedSegment.headerSize)
  }

  /// Reads the block at ``offset`` into `block` (stored bytes, CRC-checked) and moves past it;
  /// a trailer's values are returned for checking once every block before it was handed out.
  private mutating func readBlock(into block: JournalCompressedBlock) throws(StoreError) -> Step {
    let headerSize = JournalCompressedSegment.blockHeaderSize
    block.clear()
    guard offset + UInt64(headerSize) <= reader.fileSize else {
      throw corrupt("the segment ends without its trailer", at: offset)
    }
    try reader.read(at: offset, count: headerSize, into: &blockHeader)
    let header = try decoding {
      [blockHeader, offset, blockLimit] () throws(JournalCompressedSegment.Damage) in
      try JournalCompressedSegment.decodeBlockHeader(blockHeader, at: offset, limit: blockLimit)
    }
    guard offset + UInt64(headerSize + header.storedLength) <= reader.fileSize else {
      throw corrupt("block lengths are out of range", at: offset)
    }
    try reader.read(
      at: offset + UInt64(headerSize), count: header.storedLength, into: &block.stored)
    guard block.stored.count == header.storedLength,
      JournalCompressedSegment.blockChecksum(header: blockHeader, stored: block.stored)
        == header.checksum
    else { throw corrupt("block checksum mismatch", at: offset) }
    let position = offset
    offset += UInt64(headerSize + header.storedLength)
    block.kind = header.kind
    block.rawLength = header.rawLength
    block.position = position
    switch header.kind {
    case JournalCompressedSegment.kindRaw:
      guard header.rawLength == header.storedLength else {
        throw corrupt("raw block length", at: position)
      }
      return .data
    case JournalCompressedSegment.kindZstd:
      return .data
    case JournalCompressedSegment.kindTrailer:
      guard header.hasTrailerLengths, offset == reader.fileSize else {
        throw corrupt("trailer does not match the blocks", at: position)
      }
      let trailer = try decoding { () throws(JournalCompressedSegment.Damage) in
        try JournalCompressedSegment.decodeTrailer(block.stored, at: position)
      }
      return .trailer(
        records: trailer.records, lastSequence: trailer.lastSequence, position: position)
    default:
      throw corrupt("unknown block kind \(header.kind)", at: position)
    }
  }
}
