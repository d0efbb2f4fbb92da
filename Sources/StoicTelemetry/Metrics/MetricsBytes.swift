/// Little-endian building blocks of the metrics encodings (``MetricSampleFormat``,
/// ``MetricsLiveFormat``): a writer that appends, and a reader that checks every length
/// against what is left and never traps, whatever the bytes.
enum MetricsBytes {
  /// Appends little-endian fields to a byte array.
  struct Writer {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) { integer(value) }

    mutating func u32(_ value: UInt32) { integer(value) }

    mutating func u64(_ value: UInt64) { integer(value) }

    mutating func double(_ value: Double) { integer(value.bitPattern) }

    /// A text as its UTF-8 length (u16) then its bytes; the caller keeps texts under 64 KiB.
    mutating func text(_ value: String) {
      let utf8 = Array(value.utf8.prefix(Int(UInt16.max)))
      u16(UInt16(utf8.count))
      bytes.append(contentsOf: utf8)
    }

    private mutating func integer<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
  }

  /// Reads little-endian fields from bytes that may be anything: every read returns nil
  /// instead of reaching past the end.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
      self.bytes = bytes
      self.offset = offset
    }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    mutating func u8() -> UInt8? { integer() }

    mutating func u16() -> UInt16? { integer() }

    mutating func u32() -> UInt32? { integer() }

    mutating func u64() -> UInt64? { integer() }

    mutating func double() -> Double? { u64().map(Double.init(bitPattern:)) }

    /// A text written by ``Writer/text(_:)``; nil if it runs past the end or is not UTF-8.
    mutating func text() -> String? {
      guard let length = u16(), Int(length) <= remaining else { return nil }
      let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
      offset += Int(length)
      return String(validating: slice, as: UTF8.self)
    }

    /// Skips `count` bytes; false (and nothing skipped) if fewer are left.
    mutating func skip(_ count: Int) -> Bool {
      guard count >= 0, count <= remaining else { return false }
      offset += count
      return true
    }

    private mutating func integer<T: FixedWidthInteger>() -> T? {
      let size = MemoryLayout<T>.size
      guard size <= remaining else { return nil }
      let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
      offset += size
      return T(littleEndian: value)
    }
  }
}
