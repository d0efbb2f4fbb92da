import StoicStore
import Testing

/// The word-at-a-time ASCII check agrees with a byte-by-byte one at every length, alignment and
/// position of a high byte.
@Suite struct ASCIICheckTests {
  @Test func agreesWithTheByteByByteCheck() {
    let storage = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
    for start in 0..<8 {
      for length in 0...(storage.count - start - 8) {
        var bytes = storage
        bytes.withUnsafeBytes { all in
          #expect(UnsafeRawBufferPointer(rebasing: all[start..<(start + length)]).isASCII)
        }
        for position in 0..<length {
          for high: UInt8 in [0x80, 0xC3, 0xFF] {
            bytes[start + position] = high
            bytes.withUnsafeBytes { all in
              let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
              #expect(!slice.isASCII, "length \(length), byte \(position) = \(high)")
              #expect(slice.isASCII == slice.allSatisfy { $0 < 0x80 })
            }
            bytes[start + position] = UInt8(ascii: "a")
          }
        }
      }
    }
    // A high byte just outside the slice does not count.
    let edges: [UInt8] = [0xFF] + Array(repeating: UInt8(ascii: "z"), count: 17) + [0xFF]
    edges.withUnsafeBytes { #expect(UnsafeRawBufferPointer(rebasing: $0[1..<18]).isASCII) }
    #expect(UnsafeRawBufferPointer(start: nil, count: 0).isASCII)
  }
}
