/// Bounds-checked little-endian reader: every read returns nil past the end, never traps.
struct OutboxByteReader {
  private let bytes: [UInt8]
  private(set) var offset: Int

  init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  var isAtEnd: Bool { offset >= bytes.count }
  var remaining: Int { max(bytes.count - offset, 0) }

  mutating func u8() -> UInt8? { integer() }
  mutating func u16() -> UInt16? { integer() }
  mutating func u32() -> UInt32? { integer() }
  mutating func u64() -> UInt64? { integer() }

  mutating func raw(_ count: Int) -> [UInt8]? {
    guard count >= 0, count <= remaining else { return nil }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func rest() -> [UInt8] { raw(remaining) ?? [] }

  mutating func blob() -> [UInt8]? {
    guard let count = u32() else { return nil }
    return raw(Int(count))
  }

  mutating func blobs() -> [[UInt8]]? {
    guard let count = u32(), Int(count) <= remaining else { return nil }
    var values: [[UInt8]] = []
    for _ in 0..<count {
      guard let value = blob() else { return nil }
      values.append(value)
    }
    return values
  }

  mutating func strings() -> [String]? {
    guard let values = blobs() else { return nil }
    var strings: [String] = []
    for value in values {
      guard let string = String(validating: value, as: UTF8.self) else { return nil }
      strings.append(string)
    }
    return strings
  }

  private mutating func integer<T: FixedWidthInteger>() -> T? {
    guard let value = bytes.readLittleEndian(T.self, at: offset) else { return nil }
    offset += MemoryLayout<T>.size
    return value
  }
}
