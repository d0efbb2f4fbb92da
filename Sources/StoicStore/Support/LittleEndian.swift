// The one little-endian vocabulary of every Stoic on-disk format: appends, bounds-checked reads
// (`readLittleEndian`, nil past the end: for bytes not yet measured) and loads and stores at
// offsets the caller has already checked (`loadLittleEndian`, `storeLittleEndian`: for layouts
// whose size was checked first, on hot paths); and the one byte cursor every format reads and
// writes its fields with (`ByteReader`, `ByteWriter`: the outbox's records and snapshot, the log
// record, the metrics records and live file).

extension Array where Element == UInt8 {
  /// Appends `value` in little-endian byte order (the order of every Stoic on-disk format).
  @inlinable
  package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  /// Reads a little-endian integer at `offset`, or `nil` when fewer than its size remain.
  @inlinable
  package func readLittleEndian<T: FixedWidthInteger>(_: T.Type = T.self, at offset: Int) -> T? {
    let size = MemoryLayout<T>.size
    guard offset >= 0, offset <= count - size else { return nil }
    return loadLittleEndian(T.self, at: offset)
  }

  /// Loads the little-endian integer at `offset`, which the caller has checked lies whole
  /// within the array.
  @inlinable
  package func loadLittleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    withUnsafeBytes { $0.loadLittleEndian(T.self, at: offset) }
  }

  /// Stores `value` little-endian over the bytes at `offset`, which the caller has checked lie
  /// whole within the array.
  @inlinable
  package mutating func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    withUnsafeMutableBytes { $0.storeLittleEndian(value, at: offset) }
  }
}

extension UnsafeRawBufferPointer {
  /// Reads a little-endian integer at `offset`, or `nil` when fewer than its size remain.
  @inlinable
  package func readLittleEndian<T: FixedWidthInteger>(_: T.Type = T.self, at offset: Int) -> T? {
    let size = MemoryLayout<T>.size
    guard offset >= 0, offset <= count - size else { return nil }
    return loadLittleEndian(T.self, at: offset)
  }

  /// Loads the little-endian integer at `offset`, which the caller has checked lies whole
  /// within the buffer.
  @inlinable
  package func loadLittleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}

extension UnsafeMutableRawBufferPointer {
  /// Stores `value` little-endian at `offset`, which the caller has checked lies whole within
  /// the buffer.
  @inlinable
  package func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
  }
}

// MARK: - The byte cursor

/// Where a ``ByteWriter`` puts its bytes: a growing array (``Swift/Array``), or a buffer of a
/// size computed first (``BoundedBytes``: the journal's mapped tail on the log path).
@_spi(Formats) public protocol ByteWriterOutput {
  /// How many bytes have been written.
  var written: Int { get }
  /// Writes one byte (dropped past the end of a bounded output).
  mutating func write(_ byte: UInt8)
  /// Writes `bytes` (cut at the end of a bounded output).
  mutating func write(_ bytes: UnsafeRawBufferPointer)
}

@_spi(Formats) extension Array: ByteWriterOutput where Element == UInt8 {
  /// The array's count.
  @inlinable
  public var written: Int { count }

  /// Appends `byte`.
  @inlinable
  public mutating func write(_ byte: UInt8) { append(byte) }

  /// Appends `bytes`.
  @inlinable
  public mutating func write(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// A buffer sized exactly for what is written into it. Every store is checked against the end (a
/// compare per field): were the sizing ever wrong, the bytes would come out short, never written
/// past the buffer.
@_spi(Formats) public struct BoundedBytes: ByteWriterOutput {
  @usableFromInline let base: UnsafeMutableRawPointer?
  @usableFromInline let count: Int
  @usableFromInline var stored = 0

  /// How many bytes have been stored from the start of the buffer.
  @inlinable
  public var written: Int { stored }

  /// Writes into `buffer`, from its start.
  @inlinable
  public init(_ buffer: UnsafeMutableRawBufferPointer) {
    base = buffer.baseAddress
    count = buffer.count
  }

  /// Stores `byte`, unless the buffer is full.
  @inlinable @inline(__always)
  public mutating func write(_ byte: UInt8) {
    guard let base, stored < count else { return }
    base.storeBytes(of: byte, toByteOffset: stored, as: UInt8.self)
    stored += 1
  }

  /// Stores as many of `bytes` as fit.
  @inlinable @inline(__always)
  public mutating func write(_ bytes: UnsafeRawBufferPointer) {
    guard let base, let source = bytes.baseAddress else { return }
    let size = min(bytes.count, count - stored)
    (base + stored).copyMemory(from: source, byteCount: size)
    stored += size
  }
}

/// Writes the fields of every Stoic little-endian format: fixed-width integers, LEB128 varints
/// and length-prefixed bytes, into an array that grows or a buffer sized first.
///
/// Public as SPI (`@_spi(Formats)`, with ``ByteWriterOutput`` and ``BoundedBytes``), not
/// `package`: the compiler serializes no `package` body, `@inlinable` or not, so the formats of
/// other modules (the log record's, the metrics records') called every method across the module
/// boundary, generic or bound to an exported specialization, where a public `@inlinable` body is
/// specialized and inlined into the format's own code (callgrind, a `LogSpool.log` call with a
/// `LogMetadata`: 4,672 instructions with `package`, 4,391 as SPI; through `Logger`: 10,604,
/// 10,453). No method is exported specialized: a client bound to an exported specialization
/// calls it rather than inline it.
@_spi(Formats) public struct ByteWriter<Output: ByteWriterOutput> {
  /// The bytes written so far (the array, for a writer that appends).
  public var bytes: Output

  /// A writer that writes into `output`.
  @inlinable
  public init(into output: Output) { bytes = output }

  /// How many bytes have been written.
  @inlinable
  public var offset: Int { bytes.written }

  /// One byte.
  @inlinable
  public mutating func u8(_ value: UInt8) { bytes.write(value) }

  /// A little-endian `UInt16`.
  @inlinable
  public mutating func u16(_ value: UInt16) { integer(value) }

  /// A little-endian `UInt32`.
  @inlinable
  public mutating func u32(_ value: UInt32) { integer(value) }

  /// A little-endian `UInt64`.
  @inlinable
  public mutating func u64(_ value: UInt64) { integer(value) }

  /// A little-endian `Int64`.
  @inlinable
  public mutating func i64(_ value: Int64) { integer(value) }

  /// A `Double` as the little-endian `UInt64` of its bit pattern.
  @inlinable
  public mutating func double(_ value: Double) { integer(value.bitPattern) }

  /// An unsigned LEB128 varint in its shortest form (7 bits a byte, low bits first, the high bit
  /// set on every byte but the last): at most 10 bytes.
  @inlinable
  public mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.write(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.write(UInt8(value))
  }

  /// The bytes as they are, with no length.
  @inlinable
  public mutating func raw(_ value: [UInt8]) {
    value.withUnsafeBytes { bytes.write($0) }
  }

  /// The bytes as they are, with no length.
  @inlinable
  public mutating func raw(_ value: UnsafeRawBufferPointer) { bytes.write(value) }

  /// A text's UTF-8 as it is, with no length (byte by byte when the text is not contiguous).
  @inlinable
  public mutating func utf8(_ text: String) {
    let utf8 = text.utf8
    let copied: Void? = utf8.withContiguousStorageIfAvailable {
      bytes.write(UnsafeRawBufferPointer($0))
    }
    if copied == nil {
      for unit in utf8 { bytes.write(unit) }
    }
  }

  /// A u32 length, then the bytes.
  @inlinable
  public mutating func blob(_ value: [UInt8]) {
    u32(UInt32(truncatingIfNeeded: value.count))
    raw(value)
  }

  /// A u32 count, then each element as a ``blob(_:)``.
  @inlinable
  public mutating func blobs(_ values: [[UInt8]]) {
    u32(UInt32(truncatingIfNeeded: values.count))
    for value in values { blob(value) }
  }

  /// A u32 count, then each text's UTF-8 as a ``blob(_:)``.
  @inlinable
  public mutating func strings(_ values: [String]) {
    u32(UInt32(truncatingIfNeeded: values.count))
    for value in values { blob(Array(value.utf8)) }
  }

  /// A text as a u16 UTF-8 length, then its bytes: the first 65,535 bytes of a longer text.
  @inlinable
  public mutating func shortText(_ value: String) {
    let utf8 = Array(value.utf8.prefix(Int(UInt16.max)))
    u16(UInt16(truncatingIfNeeded: utf8.count))
    raw(utf8)
  }

  /// A text as a varint UTF-8 length, then its bytes.
  @inlinable
  public mutating func varintText(_ value: String) {
    // One look at the text's storage for its length and its bytes.
    let written: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
      varint(UInt64(utf8.count))
      bytes.write(UnsafeRawBufferPointer(utf8))
    }
    if written == nil {
      varint(UInt64(value.utf8.count))
      utf8(value)
    }
  }

  @inlinable @inline(__always)
  mutating func integer<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { bytes.write($0) }
  }
}

extension ByteWriter where Output == [UInt8] {
  /// A writer that appends to an empty array.
  @inlinable
  public init() { bytes = [] }
}

/// Reads the fields of every Stoic little-endian format from bytes that may be anything: every
/// read checks the bytes left and returns `nil` (moving nothing) rather than reach past the end.
package struct ByteReader {
  /// The bytes read.
  package let bytes: UnsafeRawBufferPointer
  /// Where the next read starts.
  package var offset: Int

  /// Reads `bytes` from `offset`.
  @inlinable
  package init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  /// How many bytes are left.
  @inlinable
  package var remaining: Int { max(bytes.count - offset, 0) }

  /// Whether nothing is left.
  @inlinable
  package var isAtEnd: Bool { offset >= bytes.count }

  /// One byte.
  @inlinable
  package mutating func u8() -> UInt8? {
    guard offset >= 0, offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A little-endian `UInt16`.
  @inlinable
  package mutating func u16() -> UInt16? { integer() }

  /// A little-endian `UInt32`.
  @inlinable
  package mutating func u32() -> UInt32? { integer() }

  /// A little-endian `UInt64`.
  @inlinable
  package mutating func u64() -> UInt64? { integer() }

  /// A little-endian `Int64`.
  @inlinable
  package mutating func i64() -> Int64? { integer() }

  /// A `Double` written by ``ByteWriter/double(_:)``.
  @inlinable
  package mutating func double() -> Double? { u64().map(Double.init(bitPattern:)) }

  /// The next `count` bytes, borrowed.
  @inlinable
  package mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
    guard count >= 0, count <= remaining else { return nil }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
  }

  /// The next `count` bytes, copied.
  @inlinable
  package mutating func raw(_ count: Int) -> [UInt8]? { take(count).map(Array.init) }

  /// Everything left, copied.
  @inlinable
  package mutating func rest() -> [UInt8] { raw(remaining) ?? [] }

  /// Skips `count` bytes; false (and nothing skipped) if fewer are left.
  @inlinable
  package mutating func skip(_ count: Int) -> Bool { take(count) != nil }

  /// Bytes written by ``ByteWriter/blob(_:)``.
  @inlinable
  package mutating func blob() -> [UInt8]? {
    guard let count = u32() else { return nil }
    return raw(Int(count))
  }

  /// Bytes written by ``ByteWriter/blobs(_:)``; never reserves more than the bytes left.
  @inlinable
  package mutating func blobs() -> [[UInt8]]? {
    guard let count = u32(), Int(count) <= remaining else { return nil }
    var values: [[UInt8]] = []
    for _ in 0..<count {
      guard let value = blob() else { return nil }
      values.append(value)
    }
    return values
  }

  /// Texts written by ``ByteWriter/strings(_:)``; nil if one is not UTF-8.
  @inlinable
  package mutating func strings() -> [String]? {
    guard let values = blobs() else { return nil }
    var strings: [String] = []
    for value in values {
      guard let string = String(validating: value, as: UTF8.self) else { return nil }
      strings.append(string)
    }
    return strings
  }

  /// A text written by ``ByteWriter/shortText(_:)``; nil if it runs past the end or is not
  /// UTF-8.
  @inlinable
  package mutating func shortText() -> String? {
    guard let length = u16(), let slice = take(Int(length)) else { return nil }
    return String(validating: slice, as: UTF8.self)
  }

  @inlinable @inline(__always)
  mutating func integer<T: FixedWidthInteger>() -> T? {
    guard let value = bytes.readLittleEndian(T.self, at: offset) else { return nil }
    offset += MemoryLayout<T>.size
    return value
  }
}
