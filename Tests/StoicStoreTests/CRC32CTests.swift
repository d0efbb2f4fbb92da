import StoicStore
import StoicTesting
import Testing

@Suite("CRC32C: published vectors, hardware and portable agree, chaining")
struct CRC32CTests {

  /// The CRC computed bit by bit from the reflected polynomial 0x82F63B78: a reference that
  /// shares no table or instruction with the code under test.
  static func bitwise(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
  }

  static func random(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  /// The check value and RFC 3720 appendix B.4 (the CRC bytes there are the value
  /// little-endian: `aa 36 91 8a` is 0x8A9136AA).
  static let vectors: [(String, [UInt8], UInt32)] = [
    ("\"123456789\"", Array("123456789".utf8), 0xE306_9283),
    ("32 bytes of 0x00", [UInt8](repeating: 0, count: 32), 0x8A91_36AA),
    ("32 bytes of 0xFF", [UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
    ("0x00 ... 0x1F ascending", (0..<32).map { UInt8($0) }, 0x46DD_794E),
    ("0x1F ... 0x00 descending", (0..<32).map { UInt8(31 - $0) }, 0x113F_DB5C),
    (
      "an iSCSI read command PDU",
      [
        0x01, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00,
        0x00, 0x18, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00,
      ],
      0xD996_3A56
    ),
    ("no bytes", [], 0),
  ]

  @Test("published vectors, by the dispatching, portable and bitwise implementations")
  func publishedVectors() {
    for (name, bytes, expected) in Self.vectors {
      #expect(CRC32C.checksum(bytes) == expected, "\(name)")
      #expect(CRC32C.portableChecksum(bytes) == expected, "\(name)")
      #expect(bytes.withUnsafeBytes { CRC32C.checksum($0) } == expected, "\(name)")
      #expect(Self.bitwise(bytes) == expected, "\(name)")
    }
  }

  @Test("hardware and portable agree on random buffers of every length 0...300 at every alignment")
  func hardwareAgreesWithPortable() {
    let storage = Self.random(count: 300 + 8, seed: 0x5EED)
    storage.withUnsafeBytes { all in
      for start in 0..<8 {
        for length in 0...300 {
          let slice = UnsafeRawBufferPointer(rebasing: all[start..<start + length])
          let expected = CRC32C.portableChecksum(Array(slice))
          #expect(CRC32C.checksum(slice) == expected, "start \(start), length \(length)")
        }
      }
    }
    // The portable code agrees with the bit-by-bit reference on the same lengths.
    for length in 0...300 {
      let bytes = Array(storage[3..<3 + length])
      #expect(CRC32C.portableChecksum(bytes) == Self.bitwise(bytes), "length \(length)")
    }
    let large = Self.random(count: 1 << 20, seed: 77)
    #expect(CRC32C.checksum(large) == CRC32C.portableChecksum(large))
  }

  @Test("checksumming in pieces with continuing: equals one call, at every split point")
  func chainingEqualsOneShot() {
    let bytes = Self.random(count: 300, seed: 42)
    let whole = CRC32C.checksum(bytes)
    #expect(whole == Self.bitwise(bytes))
    for split in 0...bytes.count {
      let head = Array(bytes[..<split])
      let tail = Array(bytes[split...])
      #expect(CRC32C.checksum(tail, continuing: CRC32C.checksum(head)) == whole, "split \(split)")
      #expect(
        CRC32C.portableChecksum(tail, continuing: CRC32C.portableChecksum(head)) == whole,
        "split \(split)")
    }
    var running: UInt32 = 0
    for piece in stride(from: 0, to: bytes.count, by: 7) {
      running = CRC32C.checksum(
        Array(bytes[piece..<min(piece + 7, bytes.count)]), continuing: running)
    }
    #expect(running == whole)
  }

  @Test("a single flipped bit anywhere changes the checksum")
  func bitFlipDetected() {
    let bytes = Self.random(count: 64, seed: 9)
    let original = CRC32C.checksum(bytes)
    for index in bytes.indices {
      for bit in 0..<8 {
        var damaged = bytes
        damaged[index] ^= 1 << bit
        #expect(CRC32C.checksum(damaged) != original, "byte \(index) bit \(bit)")
      }
    }
  }
}
