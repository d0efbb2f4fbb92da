/// Little-endian writer for the outbox's records and snapshot (in the project's one
/// little-endian vocabulary, `Support/LittleEndian.swift`).
struct OutboxByteWriter {
  private(set) var bytes: [UInt8] = []

  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func u16(_ value: UInt16) { bytes.appendLittleEndian(value) }
  mutating func u32(_ value: UInt32) { bytes.appendLittleEndian(value) }
  mutating func u64(_ value: UInt64) { bytes.appendLittleEndian(value) }
  mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

  /// A u32 length followed by the bytes.
  mutating func blob(_ value: [UInt8]) {
    u32(UInt32(truncatingIfNeeded: value.count))
    raw(value)
  }

  /// A u32 count followed by each string as a blob.
  mutating func strings(_ values: [String]) {
    u32(UInt32(truncatingIfNeeded: values.count))
    for value in values { blob(Array(value.utf8)) }
  }

  /// A u32 count followed by each element as a blob.
  mutating func blobs(_ values: [[UInt8]]) {
    u32(UInt32(truncatingIfNeeded: values.count))
    for value in values { blob(value) }
  }
}

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

/// A self-describing list of fields: `fieldCount:u16 | (tag:u8 | length:u32 | value)*`.
///
/// Used for every record type after the seed's two and for snapshot entries, so that a field
/// added later is skipped (and kept) by an older reader, and a missing one is detected by its
/// absence rather than by a misparse.
struct OutboxFields {
  /// The fields, in the order written; a tag appears at most once when written by this build.
  var fields: [(tag: UInt8, value: [UInt8])] = []

  init() {}

  subscript(tag: UInt8) -> [UInt8]? {
    fields.first { $0.tag == tag }?.value
  }

  mutating func set(_ tag: UInt8, _ value: [UInt8]) {
    if let index = fields.firstIndex(where: { $0.tag == tag }) {
      fields[index].value = value
    } else {
      fields.append((tag, value))
    }
  }

  mutating func set(_ tag: UInt8, string: String) { set(tag, Array(string.utf8)) }

  mutating func set(_ tag: UInt8, u64: UInt64) {
    var writer = OutboxByteWriter()
    writer.u64(u64)
    set(tag, writer.bytes)
  }

  mutating func set(_ tag: UInt8, strings: [String]) {
    var writer = OutboxByteWriter()
    writer.strings(strings)
    set(tag, writer.bytes)
  }

  func string(_ tag: UInt8) -> String? {
    self[tag].flatMap { String(validating: $0, as: UTF8.self) }
  }

  func u64(_ tag: UInt8) -> UInt64? {
    guard let value = self[tag], value.count == 8 else { return nil }
    var reader = OutboxByteReader(value)
    return reader.u64()
  }

  func strings(_ tag: UInt8) -> [String]? {
    guard let value = self[tag] else { return nil }
    var reader = OutboxByteReader(value)
    guard let strings = reader.strings(), reader.isAtEnd else { return nil }
    return strings
  }

  func encoded() -> [UInt8] {
    var writer = OutboxByteWriter()
    writer.u16(UInt16(truncatingIfNeeded: fields.count))
    for field in fields {
      writer.u8(field.tag)
      writer.blob(field.value)
    }
    return writer.bytes
  }

  /// Parses fields that must fill `bytes` exactly; nil when they do not.
  static func decode(_ bytes: [UInt8]) -> OutboxFields? {
    var reader = OutboxByteReader(bytes)
    guard let fields = decode(from: &reader), reader.isAtEnd else { return nil }
    return fields
  }

  static func decode(from reader: inout OutboxByteReader) -> OutboxFields? {
    guard let count = reader.u16() else { return nil }
    var fields = OutboxFields()
    for _ in 0..<count {
      guard let tag = reader.u8(), let value = reader.blob() else { return nil }
      fields.fields.append((tag, value))
    }
    return fields
  }
}
