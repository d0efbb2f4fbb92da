/// Writes the protobuf binary format into one growing byte buffer.
///
/// A submessage's length comes before its bytes, so a writer must know it before writing
/// them, or make room afterwards. This one makes room afterwards: ``message(_:_:)`` reserves one
/// byte for the length (enough for anything under 128 bytes: every attribute, value and small
/// record), writes the body, and only if the body turned out longer moves it up by the one to
/// four extra bytes its length needs (one `memmove`). Compared with the alternatives:
///
/// - sizing first (a size pass over the whole tree, then the write) visits each nested message
///   once per enclosing level, and would need a cache of sizes to avoid that;
/// - a fixed five-byte slot needs no move, but writes non-canonical, padded varints (up to
///   four wasted bytes per message, about thirty per log record, and bytes that differ from
///   every other encoder's).
///
/// Here every byte is written once and moved at most once per enclosing message of 128 bytes
/// or more; the output is canonical (minimal varints, fields in field-number order as written,
/// proto3 defaults omitted), so it matches other encoders byte for byte.
package struct ProtobufWriter: ~Copyable {
  /// The bytes written so far.
  package var bytes: ByteBuffer

  /// An empty writer with room for `capacity` bytes before it grows.
  package init(capacity: Int = 4096) {
    bytes = ByteBuffer(capacity: capacity)
  }

  /// Runs `body` with a fresh writer and appends what it wrote to `buffer` (one copy).
  package static func append(to buffer: inout [UInt8], _ body: (inout ProtobufWriter) -> Void) {
    var writer = ProtobufWriter(capacity: max(buffer.capacity - buffer.count, 4096))
    body(&writer)
    writer.bytes.copy(appendingTo: &buffer)
  }

  // MARK: Primitives

  /// Appends `value` as a base-128 varint (1 to 10 bytes).
  @inline(__always)
  package mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(truncatingIfNeeded: rest))
  }

  /// Appends a field's tag: its number and wire type.
  @inline(__always)
  package mutating func tag(_ field: Int, _ wireType: ProtobufWireType) {
    varint(UInt64(truncatingIfNeeded: field) << 3 | UInt64(wireType.rawValue))
  }

  /// Appends eight little-endian bytes.
  @inline(__always)
  package mutating func littleEndian64(_ value: UInt64) {
    bytes.appendLittleEndian(value)
  }

  /// Appends four little-endian bytes.
  @inline(__always)
  package mutating func littleEndian32(_ value: UInt32) {
    bytes.appendLittleEndian(value)
  }

  /// The number of bytes `value` takes as a varint.
  @inline(__always)
  package static func varintSize(_ value: UInt64) -> Int {
    // 1 + (index of the highest set bit) / 7, with 0 taking one byte.
    let bits = 64 - (value | 1).leadingZeroBitCount
    return (bits + 6) / 7
  }

  /// The zigzag mapping of `sint64`: small magnitudes of either sign become small varints.
  package static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  // MARK: Fields (proto3: a field holding its default is not written)

  /// A `uint32`/`uint64` field, omitted when zero.
  @inline(__always)
  package mutating func uint64(_ field: Int, _ value: UInt64) {
    guard value != 0 else { return }
    tag(field, .varint)
    varint(value)
  }

  /// An `int64` field (two's complement varint), omitted when zero.
  @inline(__always)
  package mutating func int64(_ field: Int, _ value: Int64) {
    uint64(field, UInt64(bitPattern: value))
  }

  /// An `int32` or enum field, omitted when zero. Negative values take ten bytes, sign-extended
  /// to 64 bits, as protobuf requires.
  @inline(__always)
  package mutating func int32(_ field: Int, _ value: Int32) {
    uint64(field, UInt64(bitPattern: Int64(value)))
  }

  /// A `bool` field, omitted when false.
  @inline(__always)
  package mutating func bool(_ field: Int, _ value: Bool) {
    uint64(field, value ? 1 : 0)
  }

  /// A `fixed64` field, omitted when zero.
  @inline(__always)
  package mutating func fixed64(_ field: Int, _ value: UInt64) {
    guard value != 0 else { return }
    tag(field, .fixed64)
    littleEndian64(value)
  }

  /// A `fixed32` field, omitted when zero.
  @inline(__always)
  package mutating func fixed32(_ field: Int, _ value: UInt32) {
    guard value != 0 else { return }
    tag(field, .fixed32)
    littleEndian32(value)
  }

  /// A `double` field, omitted when it is +0.0 (the default; -0.0 is written).
  @inline(__always)
  package mutating func double(_ field: Int, _ value: Double) {
    fixed64(field, value.bitPattern)
  }

  /// A `string` field, omitted when empty.
  @inline(__always)
  package mutating func string(_ field: Int, _ value: String) {
    guard !value.isEmpty else { return }
    presentString(field, value)
  }

  /// A `bytes` field, omitted when empty.
  @inline(__always)
  package mutating func bytes(_ field: Int, _ value: [UInt8]) {
    guard !value.isEmpty else { return }
    presentBytes(field, value)
  }

  // MARK: Fields with presence (a oneof member, an `optional`): written even when default

  /// A varint field written whatever its value.
  package mutating func presentVarint(_ field: Int, _ value: UInt64) {
    tag(field, .varint)
    varint(value)
  }

  /// A `fixed64`/`sfixed64`/`double` field (by bit pattern) written whatever its value.
  package mutating func presentFixed64(_ field: Int, _ value: UInt64) {
    tag(field, .fixed64)
    littleEndian64(value)
  }

  /// A `string` field written even when empty.
  @inline(__always)
  package mutating func presentString(_ field: Int, _ value: String) {
    tag(field, .lengthDelimited)
    varint(UInt64(value.utf8.count))
    bytes.append(value)
  }

  /// A `bytes` field written even when empty.
  package mutating func presentBytes(_ field: Int, _ value: [UInt8]) {
    tag(field, .lengthDelimited)
    varint(UInt64(value.count))
    value.withUnsafeBufferPointer { bytes.append($0) }
  }

  // MARK: Repeated scalars

  /// A packed `repeated fixed64` field, omitted when empty.
  package mutating func packedFixed64(_ field: Int, _ values: [UInt64]) {
    guard !values.isEmpty else { return }
    tag(field, .lengthDelimited)
    varint(UInt64(values.count * 8))
    for value in values { littleEndian64(value) }
  }

  /// A packed `repeated double` field, omitted when empty.
  package mutating func packedDouble(_ field: Int, _ values: [Double]) {
    guard !values.isEmpty else { return }
    tag(field, .lengthDelimited)
    varint(UInt64(values.count * 8))
    for value in values { littleEndian64(value.bitPattern) }
  }

  // MARK: Submessages

  /// Starts a submessage field: writes its tag and reserves one byte for its length. Write
  /// the submessage's fields, then call ``endMessage(_:)`` with the returned slot. (A pair of
  /// calls rather than a closure: no context to capture on the hottest path.)
  @inline(__always)
  package mutating func beginMessage(_ field: Int) -> Int {
    tag(field, .lengthDelimited)
    bytes.append(0)
    return bytes.count - 1
  }

  /// Ends the submessage started at `slot`: fills in its length (see the type's
  /// documentation for how).
  @inline(__always)
  package mutating func endMessage(_ slot: Int) {
    let length = bytes.count - slot - 1
    if length < 0x80 {
      bytes[slot] = UInt8(truncatingIfNeeded: length)
    } else {
      fillLongLength(length, at: slot)
    }
  }

  /// A submessage field, written whatever its content (an empty message is two bytes): `body`
  /// writes the submessage's fields between ``beginMessage(_:)`` and ``endMessage(_:)``.
  @inline(__always)
  package mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
    let slot = beginMessage(field)
    body(&self)
    endMessage(slot)
  }

  /// Makes room for a length of two or more bytes at `slot` (moving the body up) and writes it.
  private mutating func fillLongLength(_ length: Int, at slot: Int) {
    let size = Self.varintSize(UInt64(length))
    bytes.insertGap(size - 1, at: slot + 1)
    var rest = UInt64(length)
    var index = slot
    while rest >= 0x80 {
      bytes[index] = UInt8(truncatingIfNeeded: rest) | 0x80
      rest >>= 7
      index += 1
    }
    bytes[index] = UInt8(truncatingIfNeeded: rest)
  }
}
