import Testing

@testable import StoicForwarding

/// The decoders' UTF-8 check (`UTF8Validation`) against the standard library's, on strings
/// whose ASCII runs end at every offset of the eight-byte words the check skips them in.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
  /// What the standard library says of `bytes`.
  static func expected(_ bytes: [UInt8]) -> Bool {
    String(validating: bytes, as: UTF8.self) != nil
  }

  static func checked(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
  }

  @Test(
    "a byte sequence placed after 0 to 24 ASCII bytes and before 0 to 9 more is judged as the standard library judges it",
    arguments: [
      [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xC0, 0xAF],
      [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xC3],
      [0xE2, 0x82], [0x7F],
    ] as [[UInt8]])
  func placedEverywhere(sequence: [UInt8]) {
    var disagreements: [[UInt8]] = []
    for before in 0...24 {
      for after in 0...9 {
        let bytes =
          Array(repeating: UInt8(ascii: "a"), count: before) + sequence
          + Array(repeating: UInt8(ascii: "z"), count: after)
        if Self.checked(bytes) != Self.expected(bytes) { disagreements.append(bytes) }
      }
    }
    #expect(disagreements.isEmpty)
  }

  @Test("random bytes, mostly ASCII, are judged as the standard library judges them")
  func randomBytes() {
    var generator = SystemRandomNumberGenerator()
    var disagreements = 0
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...40, using: &generator)
      let bytes = (0..<count).map { _ -> UInt8 in
        Int.random(in: 0..<10, using: &generator) == 0
          ? UInt8.random(in: 0x80...0xFF, using: &generator)
          : UInt8.random(in: 0...0x7F, using: &generator)
      }
      if Self.checked(bytes) != Self.expected(bytes) { disagreements += 1 }
    }
    #expect(disagreements == 0)
    #expect(Self.checked([]))
  }
}
