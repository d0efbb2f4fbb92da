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
