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
    var value: T = 0
    for index in 0..<size {
      value |= T(truncatingIfNeeded: self[offset + index]) << (8 * index)
    }
    return value
  }
}

extension UnsafeRawBufferPointer {
  /// Reads a little-endian integer at `offset`, or `nil` when fewer than its size remain.
  @inlinable
  package func readLittleEndian<T: FixedWidthInteger>(_: T.Type = T.self, at offset: Int) -> T? {
    let size = MemoryLayout<T>.size
    guard offset >= 0, offset <= count - size else { return nil }
    return T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
