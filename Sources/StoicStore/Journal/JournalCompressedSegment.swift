/// The layout of a sealed, compressed segment (`journal-<first>.zst`).
///
/// Header: `"STJZ" | version:u8 (1) | 0,0,0 | segmentFirst:u64 | crc32c:u32` (CRC over the 16
/// bytes before it). Then blocks, each `kind:u8 | 0,0,0 | rawLength:u32 | storedLength:u32 |
/// crc32c:u32 | stored`, the CRC covering the 12 header bytes before it and the stored bytes, so
/// a damaged block is caught before the decompressor sees it. Kind 0: stored raw; kind 1: one
/// zstd frame; kind 2: the trailer, whose 16 raw bytes are `records:u64 | lastSequence:u64`
/// and which must be the last thing in the file. A block's raw bytes are whole record frames in
/// the `.log` format (no markers), at most one read window or one frame.
enum JournalCompressedSegment {
  static let magic: [UInt8] = Array("STJZ".utf8)
  static let headerSize = 20
  static let blockHeaderSize = 16
  static let kindRaw: UInt8 = 0
  static let kindZstd: UInt8 = 1
  static let kindTrailer: UInt8 = 2
  /// The largest block any reader accepts, whatever its own window: blocks are written at
  /// most one read window (or one frame) large, and a journal reopened with a smaller window
  /// must still read them.
  static let maximumBlock = 16 << 20

  static func header(segmentFirst: UInt64) -> [UInt8] {
    var buffer = magic
    buffer.append(contentsOf: [1, 0, 0, 0])
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

  /// A block holding `raw`, compressed if that is smaller.
  static func dataBlock(_ raw: [UInt8], level: Int32, compressor: Zstd.Compressor)
    throws(StoreError) -> [UInt8]
  {
    let packed = try raw.withStoreBytes { (input) throws(StoreError) in
      try compressor.compress(input, level: level)
    }
    if packed.count < raw.count {
      return block(kind: kindZstd, rawLength: raw.count, stored: packed)
    }
    return block(kind: kindRaw, rawLength: raw.count, stored: raw)
  }

  static func trailer(records: UInt64, lastSequence: UInt64) -> [UInt8] {
    var raw: [UInt8] = []
    JournalFrame.appendLE(records, to: &raw)
    JournalFrame.appendLE(lastSequence, to: &raw)
    return block(kind: kindTrailer, rawLength: raw.count, stored: raw)
  }
}
