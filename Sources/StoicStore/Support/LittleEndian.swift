// The one little-endian vocabulary of every Stoic on-disk format: appends, bounds-checked reads
// (`readLittleEndian`, nil past the end: for bytes not yet measured) and loads and stores at
// offsets the caller has already checked (`loadLittleEndian`, `storeLittleEndian`: for layouts
// whose size was checked first, on hot paths).

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
