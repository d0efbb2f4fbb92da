/// The layout of a sealed, compressed segment (`journal-<first>.zst`), format version 2.
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
enum JournalCompressedSegment {
  static let magic: [UInt8] = Array("STJZ".utf8)
  /// The format version in byte 4 of the header.
  static let version: UInt8 = 2
  static let headerSize = 20
  static let blockHeaderSize = 16
  static let kindRaw: UInt8 = 0
  static let kindZstd: UInt8 = 1
  static let kindTrailer: UInt8 = 2
  /// The payload bytes a writer puts in one block (a larger record gets a block of its own).
  /// 1 MiB: on log records the ratio gains little beyond it (BENCHMARKS.md has the ratio at
  /// each block size), and a reader holds two blocks of about three times this each (stored,
  /// raw and rebuilt payloads), whatever the journal's size.
  static let blockTarget = 1 << 20
  /// The largest raw or stored block, and the most payload bytes in one block, any reader
  /// accepts (or one record of the reader's `maxRecordSize`, if that is larger).
  static let maximumBlock = 16 << 20
  /// The zstd minimum match for blocks at levels 1 and 2 (zstd's own is 6 there): on log
  /// records it gains a little ratio at no cost in speed (figures in BENCHMARKS.md).
  static let minimumMatch: Int32 = 7

  static func header(segmentFirst: UInt64) -> [UInt8] {
    var buffer = magic
    buffer.append(contentsOf: [version, 0, 0, 0])
    JournalFrame.appendLE(segmentFirst, to: &buffer)
    JournalFrame.appendLE(CRC32C.checksum(buffer), to: &buffer)
    return buffer
  }

  static func block(kind: UInt8, rawLength: Int, stored: [UInt8]) -> [UInt8] {
    var buffer: [UInt8] = [kind, 0, 0, 0]
    JournalFrame.appendLE(UInt32(rawLength), to: &buffer)
    JournalFrame.appendLE(UInt32(stored.count), to: &buffer)
    let crc = CRC32C.checksum(stored, continuing: CRC32C.checksum(buffer))
    JournalFrame.appendLE(crc, to: &buffer)
    buffer.append(contentsOf: stored)
    return buffer
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
    var raw: [UInt8] = []
    JournalFrame.appendLE(records, to: &raw)
    JournalFrame.appendLE(lastSequence, to: &raw)
    return block(kind: kindTrailer, rawLength: raw.count, stored: raw)
  }
}
