import StoicStore
import Testing

@Suite("AtomicFile envelope")
struct AtomicFileEnvelopeTests {
  @Test("round trips payloads of every small size and a large one")
  func roundTrip() throws {
    for size in [0, 1, 2, 19, 20, 21, 255, 4096, 1 << 20] {
      let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      let wrapped = AtomicFile.envelope(payload)
      #expect(wrapped.count == AtomicFile.envelopeHeaderSize + size)
      #expect(try AtomicFile.openEnvelope(wrapped) == payload)
    }
  }

  @Test("has the documented layout: STAF, version, reserved, length, crc32c")
  func layout() throws {
    let payload = Array("hello".utf8)
    let wrapped = AtomicFile.envelope(payload)
    #expect(Array(wrapped[0..<4]) == Array("STAF".utf8))
    #expect(wrapped[4] == 1)
    #expect(Array(wrapped[5..<8]) == [0, 0, 0])
    #expect(Array(wrapped[8..<16]) == [5, 0, 0, 0, 0, 0, 0, 0])
    let crc = CRC32C.checksum(payload, continuing: CRC32C.checksum(Array(wrapped[4..<16])))
    let stored =
      UInt32(wrapped[16]) | UInt32(wrapped[17]) << 8 | UInt32(wrapped[18]) << 16
      | UInt32(wrapped[19]) << 24
    #expect(stored == crc)
    #expect(Array(wrapped[20...]) == payload)
  }

  static let validEnvelope = AtomicFile.envelope(Array("abcdef".utf8))

  @Test("refuses reserved bytes that are not zero, even under a checksum that matches them")
  func reservedBytesMustBeZero() throws {
    // The fuzzer's find: a forged envelope whose checksum covers a nonzero reserved byte.
    let payload = Array("thme\":\u{AA}d\"ark*}".utf8)
    for index in 5..<8 {
      var header: [UInt8] = [1, 0, 0, 0]
      header[index - 4] = 0xF6
      var length: [UInt8] = []
      for shift in stride(from: 0, to: 64, by: 8) {
        length.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
      }
      let crc = CRC32C.checksum(payload, continuing: CRC32C.checksum(header + length))
      let forged =
        Array("STAF".utf8) + header + length
        + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) } + payload
      #expect(throws: StoreError.self) { try AtomicFile.openEnvelope(forged) }
    }
  }

  static let badInputs: [(String, [UInt8])] = [
    ("empty", []),
    ("truncated header", Array(validEnvelope.prefix(11))),
    ("truncated payload", Array(validEnvelope.dropLast())),
    ("trailing byte", validEnvelope + [0]),
    ("wrong magic", Array("STAG".utf8) + Array(validEnvelope.dropFirst(4))),
    ("zeros", [UInt8](repeating: 0, count: 64)),
    ("plain JSON", Array(#"{"theme":"dark"}"#.utf8)),
  ]

  @Test("refuses bad input with a typed corrupt error", arguments: badInputs)
  func refusesBadInput(name: String, bytes: [UInt8]) {
    let error = #expect(throws: StoreError.self, "\(name)") {
      try AtomicFile.openEnvelope(bytes)
    }
    #expect(error?.code == .corrupt, "\(name)")
  }

  @Test("detects every single-bit flip anywhere in the file")
  func detectsEveryBitFlip() {
    let wrapped = AtomicFile.envelope(Array(#"{"theme":"dark","interval":60}"#.utf8))
    var undetected: [(Int, Int)] = []
    for index in wrapped.indices {
      for bit in 0..<8 {
        var damaged = wrapped
        damaged[index] ^= UInt8(1 << bit)
        if (try? AtomicFile.openEnvelope(damaged)) != nil { undetected.append((index, bit)) }
      }
    }
    #expect(undetected.isEmpty, "flips not detected: \(undetected)")
  }
}
