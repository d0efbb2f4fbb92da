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
