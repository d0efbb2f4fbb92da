extension AtomicFile {
  /// The envelope's magic, `"STAF"`.
  static let magic: [UInt8] = Array("STAF".utf8)
  /// The envelope's format version.
  static let envelopeVersion: UInt8 = 1
  /// magic (4) + version (1) + reserved (3) + length (8) + crc32c (4).
  public static let envelopeHeaderSize = EnvelopeOffset.payload

  /// The envelope header's fields, by byte offset.
  enum EnvelopeOffset {
    /// `"STAF"`, 4 bytes.
    static let magic = 0..<4
    /// The format version, 1 byte.
    static let version = 4
    /// Three bytes the writer stores as zeros.
    static let reserved = 5..<8
    /// The payload's length, `u64` little-endian.
    static let length = 8
    /// The CRC32C of the bytes from `version` up to `crc` and of the payload, `u32`.
    static let crc = 16
    /// The first payload byte.
    static let payload = 20
  }

  /// Wraps a payload in the `STAF` envelope:
  /// `"STAF" | version:u8 | 0,0,0 | length:u64 | crc32c:u32 | payload`, little-endian, where
  /// the CRC32C covers the version, the reserved bytes, the length and the payload.
  public static func envelope(_ payload: [UInt8]) -> [UInt8] {
    var header: [UInt8] = [envelopeVersion, 0, 0, 0]
    header.appendLittleEndian(UInt64(payload.count))
    let crc = CRC32C.checksum(payload, continuing: CRC32C.checksum(header))
    var bytes = magic
    bytes.reserveCapacity(envelopeHeaderSize + payload.count)
    bytes += header
    bytes.appendLittleEndian(crc)
    bytes += payload
    return bytes
  }

  /// Opens a `STAF` envelope and returns its payload.
  ///
  /// - Throws: ``StoreError/Code/corrupt`` naming the first check that failed: an empty or
  ///   short file, the wrong magic, an unknown version, reserved bytes that are not zero, a
  ///   length that does not match the file (it must be exactly 20 + length bytes), or a checksum
  ///   mismatch.
  public static func openEnvelope(_ bytes: [UInt8]) throws(StoreError) -> [UInt8] {
    guard !bytes.isEmpty else { throw StoreError(.corrupt, "empty file") }
    guard bytes.count >= envelopeHeaderSize else {
      throw StoreError(.corrupt, "\(bytes.count) bytes is shorter than the envelope header")
    }
    guard bytes[EnvelopeOffset.magic].elementsEqual(magic) else {
      throw StoreError(.corrupt, "wrong magic (not a STAF envelope)")
    }
    guard bytes[EnvelopeOffset.version] == envelopeVersion else {
      throw StoreError(.corrupt, "unknown envelope version \(bytes[EnvelopeOffset.version])")
    }
    // The writer stores zeros there: an envelope with other reserved bytes is not one it
    // wrote (a payload has exactly one encoding).
    guard bytes[EnvelopeOffset.reserved].allSatisfy({ $0 == 0 }) else {
      throw StoreError(.corrupt, "reserved envelope bytes are not zero")
    }
    guard let length = bytes.readLittleEndian(UInt64.self, at: EnvelopeOffset.length),
      let stored = bytes.readLittleEndian(UInt32.self, at: EnvelopeOffset.crc)
    else { throw StoreError(.corrupt, "short envelope header") }
    guard length == UInt64(bytes.count - envelopeHeaderSize) else {
      throw StoreError(
        .corrupt,
        "envelope declares \(length) payload bytes but the file holds \(bytes.count - envelopeHeaderSize)"
      )
    }
    let payload = Array(bytes[envelopeHeaderSize...])
    let crc = bytes.withUnsafeBytes { raw in
      CRC32C.checksum(
        UnsafeRawBufferPointer(rebasing: raw[envelopeHeaderSize...]),
        continuing: CRC32C.checksum(
          UnsafeRawBufferPointer(rebasing: raw[EnvelopeOffset.version..<EnvelopeOffset.crc])))
    }
    guard crc == stored else {
      throw StoreError(.corrupt, "checksum mismatch (stored \(stored), computed \(crc))")
    }
    return payload
  }
}
