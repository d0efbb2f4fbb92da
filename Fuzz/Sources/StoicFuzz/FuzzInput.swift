/// Reads a fuzz input as a series of choices, so that one byte string describes a structure
/// (a directory of segments, a list of records). An exhausted input reads as zeros, so every
/// input describes something.
struct FuzzInput {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte was read.
  var isAtEnd: Bool { offset >= bytes.count }

  /// The next byte, or 0.
  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// The next byte's low bit.
  mutating func bool() -> Bool { byte() & 1 == 1 }

  /// A value in `range` from the next byte (or two, for a wider range).
  mutating func int(in range: ClosedRange<Int>) -> Int {
    let width = range.upperBound - range.lowerBound + 1
    let raw = width > 256 ? Int(byte()) | Int(byte()) << 8 : Int(byte())
    return range.lowerBound + raw % width
  }

  /// The next eight bytes, little-endian (missing ones are zeros).
  mutating func uint64() -> UInt64 {
    (0..<8).reduce(UInt64(0)) { value, index in value | UInt64(byte()) << (8 * index) }
  }

  /// A length (one byte, or two when the first is 255) and then that many bytes, at most
  /// `limit`.
  mutating func bytes(upTo limit: Int) -> [UInt8] {
    var count = Int(byte())
    if count == 255 { count = Int(byte()) | Int(byte()) << 8 }
    return take(min(count, limit))
  }

  /// The next `count` bytes (fewer at the end).
  mutating func take(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + max(0, count))
    defer { offset = end }
    return Array(bytes[offset..<end])
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] { take(bytes.count - offset) }
}
