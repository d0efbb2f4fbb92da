/// The layout of a sealed, compressed segment (`journal-<first>-<end>-<records>-<bytes>.zst`, or
/// `journal-<first>.zst` as earlier versions named it), format version 2.
///
/// Header: `"STJZ" | version:u8 (2) | 0,0,0 | segmentFirst:u64 | crc32c:u32` (CRC over the 16
/// bytes before it); any other version is refused as corrupt. Then blocks, each
/// `kind:u8 | 0,0,0 | rawLength:u32 | storedLength:u32 | crc32c:u32 | stored`, the CRC covering
/// the 12 header bytes before it and the stored bytes, so a damaged block is caught before the
/// decompressor sees it. Kind 0: stored raw; kind 1: zstd frames (the header and columns, then
/// the rests if any) that together decompress to exactly `rawLength` bytes; kind 2: the
/// trailer, whose 16 raw bytes are `records:u64 | lastSequence:u64` and which must be the last
/// thing in the file. A data block's raw bytes are one ``JournalRecordBlock`` (records with
/// consecutive sequences, no per-record header: the block CRC is their checksum) of at most
/// ``blockTarget`` payload bytes, or one record if it is larger.
///
/// This file is the format's one home: it writes the header, the blocks and the trailer, and
/// decodes and checks them for every reader (open's check of a segment's ends, and the block
/// reader), with every offset named.
enum JournalCompressedSegment {
  static let magic: [UInt8] = Array("STJZ".utf8)
  /// The format version in byte 4 of the header.
  static let version: UInt8 = 2

  /// Where each field of the segment header lies.
  enum HeaderOffset {
    /// `"STJZ"`.
    static let magic = 0
    /// `version:u8`.
    static let version = 4
    /// Three bytes written as zeros.
    static let reserved = 5
    /// `segmentFirst:u64`: the first sequence of the segment, as in its name.
    static let segmentFirst = 8
    /// `crc32c:u32` over the bytes before it.
    static let checksum = 16
  }
  static let headerSize = 20

  /// Where each field of a block header lies, from the block's start.
  enum BlockOffset {
    /// `kind:u8`: ``kindRaw``, ``kindZstd`` or ``kindTrailer``.
    static let kind = 0
    /// Three bytes that must be zero (a reader refuses the block otherwise).
    static let reserved = 1
    /// `rawLength:u32`: the block's bytes once decompressed.
    static let rawLength = 4
    /// `storedLength:u32`: the bytes stored after the header.
    static let storedLength = 8
    /// `crc32c:u32` over the header bytes before it and the stored bytes.
    static let checksum = 12
  }
  static let blockHeaderSize = 16
  static let kindRaw: UInt8 = 0
  static let kindZstd: UInt8 = 1
  static let kindTrailer: UInt8 = 2

  /// Where each field of the trailer's stored (and raw) bytes lies.
  enum TrailerOffset {
    /// `records:u64`: how many records the segment holds.
    static let records = 0
    /// `lastSequence:u64`: the sequence of its last record.
    static let lastSequence = 8
  }
  /// The trailer's stored (and raw) bytes.
  static let trailerPayloadSize = 16
  /// The whole trailer block, header included: a segment's last bytes.
  static let trailerSize = blockHeaderSize + trailerPayloadSize

  /// The payload bytes a writer puts in one block (a larger record gets a block of its own).
  /// 1 MiB: on log records the ratio gains little beyond it (BENCHMARKS.md has the ratio at
  /// each block size), and a reader holds two blocks of about four times this each at most
  /// (stored, raw and rebuilt payloads, and the stored bytes of the block last decoded, kept to
  /// recognise it), whatever the journal's size.
  static let blockTarget = 1 << 20
  /// The largest raw or stored block, and the most payload bytes in one block, any reader
  /// accepts (or one record of the reader's `maxRecordSize`, if that is larger).
  static let maximumBlock = 16 << 20
  /// The zstd minimum match for blocks at levels 1 and 2 (zstd's own is 6 there): on log
  /// records it gains a little ratio at no cost in speed (figures in BENCHMARKS.md).
  static let minimumMatch: Int32 = 7

  static func header(segmentFirst: UInt64) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: headerSize)
    buffer.replaceSubrange(HeaderOffset.magic..<HeaderOffset.version, with: magic)
    buffer[HeaderOffset.version] = version
    buffer.storeLittleEndian(segmentFirst, at: HeaderOffset.segmentFirst)
    buffer.storeLittleEndian(
      CRC32C.checksum(Array(buffer[..<HeaderOffset.checksum])), at: HeaderOffset.checksum)
    return buffer
  }

  static func block(kind: UInt8, rawLength: Int, stored: [UInt8]) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: blockHeaderSize)
    buffer[BlockOffset.kind] = kind
    buffer.storeLittleEndian(UInt32(rawLength), at: BlockOffset.rawLength)
    buffer.storeLittleEndian(UInt32(stored.count), at: BlockOffset.storedLength)
    buffer.storeLittleEndian(
      blockChecksum(header: buffer, stored: stored), at: BlockOffset.checksum)
    buffer.append(contentsOf: stored)
    return buffer
  }

  /// The CRC of a block: over its header's bytes before the checksum, then its stored bytes.
  static func blockChecksum(header: [UInt8], stored: [UInt8]) -> UInt32 {
    CRC32C.checksum(
      stored, continuing: CRC32C.checksum(Array(header[..<BlockOffset.checksum])))
  }

  /// A data block holding the records collected by `encoder`: its columns and its rests as
  /// two zstd frames, or raw if that is not smaller.
  static func dataBlock(
    _ encoder: JournalRecordBlock.Encoder, level: Int32, compressor: Zstd.Compressor
  ) throws(StoreError) -> [UInt8] {
    let columns = encoder.columns()
    let rawLength = columns.count + encoder.rests.count
    let minimum = level >= 1 && level <= 2 ? minimumMatch : nil
    var stored: [UInt8] = []
    try columns.withStoreBytes { (input) throws(StoreError) in
      try compressor.compress(input, level: level, minimumMatch: minimum, appendingTo: &stored)
    }
    if !encoder.rests.isEmpty {
      try encoder.rests.withStoreBytes { (input) throws(StoreError) in
        try compressor.compress(input, level: level, minimumMatch: minimum, appendingTo: &stored)
      }
    }
    if stored.count < rawLength {
      return block(kind: kindZstd, rawLength: rawLength, stored: stored)
    }
    return block(kind: kindRaw, rawLength: rawLength, stored: columns + encoder.rests)
  }

  static func trailer(records: UInt64, lastSequence: UInt64) -> [UInt8] {
    var raw = [UInt8](repeating: 0, count: trailerPayloadSize)
    raw.storeLittleEndian(records, at: TrailerOffset.records)
    raw.storeLittleEndian(lastSequence, at: TrailerOffset.lastSequence)
    return block(kind: kindTrailer, rawLength: raw.count, stored: raw)
  }

  // MARK: - Decoding

  /// Why bytes of a compressed segment are refused, and where in the segment; each reader
  /// turns it into its ``StoreError/Code/corrupt`` error.
  struct Damage: Error, Equatable {
    let reason: String
    let offset: UInt64
  }

  /// A block header's fields.
  struct BlockHeader: Equatable {
    var kind: UInt8
    var rawLength: Int
    var storedLength: Int
    var checksum: UInt32

    /// Whether its lengths are a trailer's.
    var hasTrailerLengths: Bool {
      rawLength == trailerPayloadSize && storedLength == trailerPayloadSize
    }
  }

  /// What a trailer says.
  struct Trailer: Equatable {
    var records: UInt64
    var lastSequence: UInt64
  }

  /// Checks a segment header (the segment's first ``headerSize`` bytes): magic, checksum,
  /// version, and that it names the segment starting at `segmentFirst`.
  static func checkHeader(_ header: [UInt8], segmentFirst: UInt64) throws(Damage) {
    guard header.count == headerSize,
      Array(header[HeaderOffset.magic..<HeaderOffset.version]) == magic,
      CRC32C.checksum(Array(header[..<HeaderOffset.checksum]))
        == header.loadLittleEndian(UInt32.self, at: HeaderOffset.checksum)
    else { throw Damage(reason: "bad segment header", offset: 0) }
    let found = header[HeaderOffset.version]
    guard found == version else {
      throw Damage(
        reason: "unsupported format version \(found) (this reader reads version \(version))",
        offset: UInt64(HeaderOffset.version))
    }
    guard header.loadLittleEndian(UInt64.self, at: HeaderOffset.segmentFirst) == segmentFirst
    else {
      throw Damage(
        reason: "the header names another segment", offset: UInt64(HeaderOffset.segmentFirst))
    }
  }

  /// Decodes the block header at `offset` (``blockHeaderSize`` bytes): its reserved bytes must
  /// be zero and its lengths at most `limit`.
  static func decodeBlockHeader(_ header: [UInt8], at offset: UInt64, limit: Int)
    throws(Damage) -> BlockHeader
  {
    guard header.count == blockHeaderSize else {
      throw Damage(reason: "the segment ends without its trailer", offset: offset)
    }
    let decoded = BlockHeader(
      kind: header[BlockOffset.kind],
      rawLength: Int(header.loadLittleEndian(UInt32.self, at: BlockOffset.rawLength)),
      storedLength: Int(header.loadLittleEndian(UInt32.self, at: BlockOffset.storedLength)),
      checksum: header.loadLittleEndian(UInt32.self, at: BlockOffset.checksum))
    guard header[BlockOffset.reserved..<BlockOffset.rawLength].allSatisfy({ $0 == 0 }),
      decoded.rawLength <= limit, decoded.storedLength <= limit
    else { throw Damage(reason: "block lengths are out of range", offset: offset) }
    return decoded
  }

  /// Decodes a trailer's stored bytes (at `offset`, the trailer block's own offset).
  static func decodeTrailer(_ stored: [UInt8], at offset: UInt64) throws(Damage) -> Trailer {
    guard stored.count == trailerPayloadSize else {
      throw Damage(reason: "trailer does not match the blocks", offset: offset)
    }
    let trailer = Trailer(
      records: stored.loadLittleEndian(UInt64.self, at: TrailerOffset.records),
      lastSequence: stored.loadLittleEndian(UInt64.self, at: TrailerOffset.lastSequence))
    guard trailer.records <= UInt64(Int.max), trailer.lastSequence <= JournalFrame.maximumSequence
    else { throw Damage(reason: "trailer values out of range", offset: offset) }
    return trailer
  }

  /// Decodes the trailer block that ends a segment without reading the blocks before it:
  /// `bytes` are the segment's last ``trailerSize`` bytes, at `offset`. The block is checked
  /// as the block reader checks it (reserved bytes, kind, lengths, checksum), so open and a
  /// later read agree on which trailers are whole.
  static func decodeTrailerBlock(_ bytes: [UInt8], at offset: UInt64) throws(Damage) -> Trailer {
    let mismatch = Damage(reason: "trailer checksum mismatch", offset: offset)
    guard bytes.count == trailerSize else { throw mismatch }
    let headerBytes = Array(bytes[..<blockHeaderSize])
    let stored = Array(bytes[blockHeaderSize...])
    let header: BlockHeader
    do throws(Damage) {
      header = try decodeBlockHeader(headerBytes, at: offset, limit: trailerPayloadSize)
    } catch {
      throw mismatch
    }
    guard header.kind == kindTrailer, header.hasTrailerLengths,
      blockChecksum(header: headerBytes, stored: stored) == header.checksum
    else { throw mismatch }
    return try decodeTrailer(stored, at: offset)
  }
}
