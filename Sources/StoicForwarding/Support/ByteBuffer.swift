/// A growable run of bytes that the encoders write into with plain stores: no uniqueness or
/// capacity check per byte beyond one comparison, no generic `append(contentsOf:)` path.
///
/// `[UInt8].append` checks that the array is uniquely referenced and has room on every call,
/// and appending a string's bytes goes through the generic collection path; on a log record
/// that is dozens of calls. Here a write is a bounds comparison and a store, and a string's
/// bytes are one `memcpy`. The encoders copy the result into the caller's `[UInt8]` once per
/// message (one `memcpy` of the whole body).
///
/// Non-copyable: it owns its memory and frees it when it goes away.
package struct ByteBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes have been written.
  package private(set) var count: Int

  /// An empty buffer with room for `capacity` bytes before it first grows.
  package init(capacity: Int = 4096) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
    count = 0
  }

  deinit {
    base.deallocate()
  }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  package mutating func reserve(_ extra: Int) {
    if capacity - count < extra { grow(extra) }
  }

  private mutating func grow(_ extra: Int) {
    var newCapacity = capacity * 2
    while newCapacity - count < extra { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Appends one byte.
  @inline(__always)
  package mutating func append(_ byte: UInt8) {
    if count == capacity { grow(1) }
    base[count] = byte
    count += 1
  }

  /// Appends `bytes`.
  @inline(__always)
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends the UTF-8 bytes of `string`.
  @inline(__always)
  package mutating func append(_ string: String) {
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { append($0) }
    if done == nil {
      for byte in string.utf8 { append(byte) }
    }
  }

  /// Appends `value`'s bytes in little-endian order.
  @inline(__always)
  package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    let size = MemoryLayout<T>.size
    reserve(size)
    UnsafeMutableRawPointer(base + count).storeBytes(
      of: value.littleEndian, toByteOffset: 0, as: T.self)
    count += size
  }

  /// Appends `count` copies of `byte`.
  package mutating func append(repeating byte: UInt8, count repeats: Int) {
    guard repeats > 0 else { return }
    reserve(repeats)
    (base + count).update(repeating: byte, count: repeats)
    count += repeats
  }

  /// The byte at `index` (below ``count``).
  @inline(__always)
  package subscript(index: Int) -> UInt8 {
    get { base[index] }
    set { base[index] = newValue }
  }

  /// Inserts `gap` bytes (of undefined value) at `index`, moving what follows up.
  package mutating func insertGap(_ gap: Int, at index: Int) {
    reserve(gap)
    UnsafeMutableRawPointer(base + index + gap).copyMemory(
      from: base + index, byteCount: count - index)
    count += gap
  }

  /// Appends everything written to `array`.
  package func copy(appendingTo array: inout [UInt8]) {
    array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
  }
}
