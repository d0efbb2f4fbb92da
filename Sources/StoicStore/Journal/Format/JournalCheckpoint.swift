/// The journal's checkpoint file, `journal.checkpoint`: the low-water mark (records at or
/// below it are dropped) and the caller's snapshot, replaced atomically as a whole.
///
/// Layout, little-endian: `"STJC" | version:u8 (1) | flags:u8 | 0:u16 | lowWater:u64 |
/// snapshotSequence:u64 | rawLength:u64 | storedLength:u64 | crc32c:u32 | stored`. Flags: bit 0
/// a snapshot is present, bit 1 the stored bytes are zstd-compressed. The CRC covers every byte
/// before it and the stored bytes; the file must be exactly `44 + storedLength` bytes.
struct JournalCheckpoint: Sendable, Equatable {
  static let magic: [UInt8] = Array("STJC".utf8)
  static let headerSize = 44
  static let flagSnapshot: UInt8 = 1
  static let flagCompressed: UInt8 = 2

  var lowWater: UInt64
  var snapshotSequence: UInt64
  var hasSnapshot: Bool
  var compressed: Bool
  var rawLength: UInt64
  var stored: [UInt8]

  /// A checkpoint with no snapshot.
  static func lowWater(_ sequence: UInt64) -> JournalCheckpoint {
    JournalCheckpoint(
      lowWater: sequence, snapshotSequence: 0, hasSnapshot: false, compressed: false,
      rawLength: 0, stored: [])
  }

  /// A checkpoint holding `bytes` as the state through `sequence`, compressed when that helps.
  static func snapshot(sequence: UInt64, bytes: [UInt8], level: Int32) throws(StoreError)
    -> JournalCheckpoint
  {
    let packed = try Zstd.compress(bytes, level: level)
    let useCompressed = packed.count < bytes.count
    return JournalCheckpoint(
      lowWater: sequence, snapshotSequence: sequence, hasSnapshot: true,
      compressed: useCompressed, rawLength: UInt64(bytes.count),
      stored: useCompressed ? packed : bytes)
  }

  func encoded() -> [UInt8] {
    var buffer = JournalCheckpoint.magic
    buffer.append(1)
    buffer.append((hasSnapshot ? Self.flagSnapshot : 0) | (compressed ? Self.flagCompressed : 0))
    buffer.append(contentsOf: [0, 0])
    buffer.appendLittleEndian(lowWater)
    buffer.appendLittleEndian(snapshotSequence)
    buffer.appendLittleEndian(rawLength)
    buffer.appendLittleEndian(UInt64(stored.count))
    let crc = CRC32C.checksum(stored, continuing: CRC32C.checksum(buffer))
    buffer.appendLittleEndian(crc)
    buffer.append(contentsOf: stored)
    return buffer
  }

  /// Decodes a checkpoint file.
  /// - Throws: ``StoreError/Code/corrupt`` naming `path` if anything fails to check.
  static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> JournalCheckpoint {
    func corrupt(_ why: String) -> StoreError {
      StoreError(.corrupt, "journal checkpoint is damaged: \(why)", path: path)
    }
    guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else {
      throw corrupt("bad magic or short file (\(bytes.count) bytes)")
    }
    guard bytes[4] == 1 else { throw corrupt("unknown version \(bytes[4])") }
    let flags = bytes[5]
    let lowWater = bytes.loadLittleEndian(UInt64.self, at: 8)
    let snapshotSequence = bytes.loadLittleEndian(UInt64.self, at: 16)
    let rawLength = bytes.loadLittleEndian(UInt64.self, at: 24)
    let storedLength = bytes.loadLittleEndian(UInt64.self, at: 32)
    guard storedLength == UInt64(bytes.count - headerSize) else {
      throw corrupt("length \(storedLength) does not match the file")
    }
    guard lowWater <= JournalFrame.maximumSequence, snapshotSequence <= lowWater else {
      throw corrupt("sequences out of range")
    }
    let stored = Array(bytes[headerSize...])
    let crc = CRC32C.checksum(stored, continuing: CRC32C.checksum(Array(bytes[0..<40])))
    guard crc == bytes.loadLittleEndian(UInt32.self, at: 40) else {
      throw corrupt("checksum mismatch")
    }
    return JournalCheckpoint(
      lowWater: lowWater, snapshotSequence: snapshotSequence,
      hasSnapshot: flags & flagSnapshot != 0, compressed: flags & flagCompressed != 0,
      rawLength: rawLength, stored: stored)
  }

  /// The snapshot's bytes, decompressed.
  func snapshotBytes(path: String) throws(StoreError) -> [UInt8] {
    guard compressed else { return stored }
    guard rawLength < UInt64(Int.max) else {
      throw StoreError(.corrupt, "journal snapshot claims \(rawLength) bytes", path: path)
    }
    let bytes = try Zstd.decompress(stored, maxOutputSize: Int(rawLength))
    guard bytes.count == Int(rawLength) else {
      throw StoreError(.corrupt, "journal snapshot decompressed to the wrong size", path: path)
    }
    return bytes
  }
}

extension JournalCheckpoint {
  /// Replaces `journal.checkpoint` in `directory` with this one, atomically (temporary file,
  /// sync, rename, directory sync). The checkpoint carries its own checksums; AtomicFile adds
  /// the replace sequence and the free-space preflight.
  func store(in directory: String, fileSystem: any FileSystem) throws(StoreError) {
    let path = StorePath.join(directory, JournalFileNames.checkpoint)
    let plain = AtomicFile.Options(envelope: false, keepPrevious: false)
    try AtomicFile(path: path, fileSystem: fileSystem, options: plain).write(encoded())
  }
}
