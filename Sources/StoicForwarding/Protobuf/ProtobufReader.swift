/// Reads the protobuf binary format from untrusted bytes, without ever trapping.
///
/// Every read checks that its bytes are there before it takes them and throws a typed
/// ``ForwardingError`` otherwise; a length is checked against what is left of its enclosing
/// message before anything is allocated for it; nesting is limited (``maximumDepth``), groups
/// included. A field the caller does not know, or one that arrives with a wire type other than
/// its own, is skipped by its wire type, as protobuf's rules say.
package struct ProtobufReader {
  /// How deep messages may nest (protobuf's own parsers stop at 100; OTLP needs a handful,
  /// plus what nested attribute values add).
  package static let maximumDepth = 64

  private let buffer: [UInt8]
  /// The next byte to read.
  package private(set) var position: Int
  /// One past the last byte of this message.
  package let end: Int
  /// How many messages enclose this one.
  package let depth: Int

  /// A reader over all of `bytes`, at depth 0.
  package init(_ bytes: [UInt8]) {
    buffer = bytes
    position = 0
    end = bytes.count
    depth = 0
  }

  private init(buffer: [UInt8], range: Range<Int>, depth: Int) {
    self.buffer = buffer
    position = range.lowerBound
    end = range.upperBound
    self.depth = depth
  }

  /// Whether every byte of this message has been read.
  package var isAtEnd: Bool { position >= end }

  // MARK: Tags

  /// The next field's number and wire type, or `nil` at the end of the message.
  ///
  /// - Throws: ``ForwardingError/Code/malformed`` for field number 0, one above 2²⁹−1, or wire
  ///   type 6 or 7; ``ForwardingError/Code/truncated`` for a tag cut short.
  package mutating func nextField() throws(ForwardingError) -> (
    number: Int, wireType: ProtobufWireType
  )? {
    guard position < end else { return nil }
    let start = position
    let key = try varint()
    let number = key >> 3
    guard number > 0, number <= 0x1FFF_FFFF else {
      throw ForwardingError(.malformed, "field number \(number) is out of range", offset: start)
    }
    guard let wireType = ProtobufWireType(rawValue: UInt8(truncatingIfNeeded: key & 7)) else {
      throw ForwardingError(.malformed, "wire type \(key & 7) does not exist", offset: start)
    }
    return (Int(number), wireType)
  }

  // MARK: Scalars

  /// A base-128 varint of at most ten bytes (bits beyond the 64th are dropped, as protobuf's
  /// parsers drop them).
  package mutating func varint() throws(ForwardingError) -> UInt64 {
    // One byte, the common case (tags, short lengths).
    if position < end, buffer[position] < 0x80 {
      position += 1
      return UInt64(buffer[position - 1])
    }
    var result: UInt64 = 0
    var shift: UInt64 = 0
    let start = position
    while true {
      guard position < end else {
        throw ForwardingError(.truncated, "varint cut short", offset: start)
      }
      let byte = buffer[position]
      position += 1
      if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
      if byte < 0x80 { return result }
      shift += 7
      guard shift < 70 else {
        throw ForwardingError(.malformed, "varint longer than ten bytes", offset: start)
      }
    }
  }

  /// Eight little-endian bytes.
  package mutating func fixed64() throws(ForwardingError) -> UInt64 {
    guard end - position >= 8 else {
      throw ForwardingError(.truncated, "fixed64 cut short", offset: position)
    }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(buffer[position + index]) << (8 * UInt64(index)) }
    position += 8
    return value
  }

  /// Four little-endian bytes.
  package mutating func fixed32() throws(ForwardingError) -> UInt32 {
    guard end - position >= 4 else {
      throw ForwardingError(.truncated, "fixed32 cut short", offset: position)
    }
    var value: UInt32 = 0
    for index in 0..<4 { value |= UInt32(buffer[position + index]) << (8 * UInt32(index)) }
    position += 4
    return value
  }

  /// The inverse of ``ProtobufWriter/zigzag(_:)``.
  package static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }

  // MARK: Length-delimited values

  /// The range of the next length-delimited value, checked against what is left.
  package mutating func lengthDelimited() throws(ForwardingError) -> Range<Int> {
    let start = position
    let length = try varint()
    guard length <= UInt64(end - position) else {
      throw ForwardingError(
        .truncated, "a length of \(length) runs past the \(end - position) bytes left",
        offset: start)
    }
    let range = position..<(position + Int(length))
    position = range.upperBound
    return range
  }

  /// A UTF-8 string (protobuf's `string` must be valid UTF-8).
  package mutating func string() throws(ForwardingError) -> String {
    let range = try checkedString()
    if range.isEmpty { return "" }
    return buffer.withUnsafeBufferPointer { all in
      String(decoding: UnsafeBufferPointer(rebasing: all[range]), as: UTF8.self)
    }
  }

  /// Skips a string after checking it as ``string()`` does, without making it.
  package mutating func checkString() throws(ForwardingError) {
    _ = try checkedString()
  }

  /// The range of the next string, checked to be valid UTF-8.
  private mutating func checkedString() throws(ForwardingError) -> Range<Int> {
    let range = try lengthDelimited()
    if range.isEmpty { return range }
    let valid = buffer.withUnsafeBufferPointer { all in
      UTF8Validation.isValid(UnsafeBufferPointer(rebasing: all[range]))
    }
    guard valid else {
      throw ForwardingError(.invalidUTF8, "a string is not valid UTF-8", offset: range.lowerBound)
    }
    return range
  }

  /// The bytes of a `bytes` field.
  package mutating func bytes() throws(ForwardingError) -> [UInt8] {
    Array(buffer[try lengthDelimited()])
  }

  /// A reader over the next length-delimited value, one level deeper.
  ///
  /// - Throws: ``ForwardingError/Code/tooDeep`` beyond ``maximumDepth``.
  package mutating func message() throws(ForwardingError) -> ProtobufReader {
    guard depth < Self.maximumDepth else {
      throw ForwardingError(
        .tooDeep, "messages nest deeper than \(Self.maximumDepth)", offset: position)
    }
    return ProtobufReader(buffer: buffer, range: try lengthDelimited(), depth: depth + 1)
  }

  /// The values of a repeated 8-byte field (`fixed64`, `double`) in either encoding: packed
  /// (one length-delimited run) or one value per field; any other wire type is skipped.
  package mutating func repeated64(
    _ wireType: ProtobufWireType, into values: inout [UInt64]
  ) throws(ForwardingError) {
    switch wireType {
    case .fixed64:
      values.append(try fixed64())
    case .lengthDelimited:
      var packed = ProtobufReader(buffer: buffer, range: try lengthDelimited(), depth: depth)
      guard (packed.end - packed.position) % 8 == 0 else {
        throw ForwardingError(
          .malformed, "a packed run of 8-byte values is not a multiple of 8 bytes",
          offset: packed.position)
      }
      values.reserveCapacity(values.count + (packed.end - packed.position) / 8)
      while !packed.isAtEnd { values.append(try packed.fixed64()) }
    default:
      try skip(wireType, field: 0)
    }
  }

  // MARK: Skipping

  /// Skips the value of a field whose tag was just read.
  ///
  /// - Throws: ``ForwardingError/Code/truncated`` if the value runs past the message;
  ///   ``ForwardingError/Code/malformed`` for an end-group with no start;
  ///   ``ForwardingError/Code/tooDeep`` for groups nested beyond ``maximumDepth``.
  package mutating func skip(_ wireType: ProtobufWireType, field: Int) throws(ForwardingError) {
    switch wireType {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .fixed32: _ = try fixed32()
    case .lengthDelimited: _ = try lengthDelimited()
    case .startGroup: try skipGroup(field: field, depth: depth + 1)
    case .endGroup:
      throw ForwardingError(.malformed, "an end-group tag with no group open", offset: position)
    }
  }

  private mutating func skipGroup(field: Int, depth: Int) throws(ForwardingError) {
    guard depth <= Self.maximumDepth else {
      throw ForwardingError(
        .tooDeep, "groups nest deeper than \(Self.maximumDepth)", offset: position)
    }
    while let (number, wireType) = try nextField() {
      switch wireType {
      case .endGroup:
        guard number == field else {
          throw ForwardingError(
            .malformed, "group \(field) closed by an end-group of field \(number)",
            offset: position)
        }
        return
      case .startGroup: try skipGroup(field: number, depth: depth + 1)
      default: try skip(wireType, field: number)
      }
    }
    throw ForwardingError(.truncated, "group \(field) is never closed", offset: position)
  }
}

/// The six wire types of the protobuf binary format: the low three bits of every field's tag,
/// which say how to find the end of its value (and so how to skip a field nobody knows).
package enum ProtobufWireType: UInt8, Sendable {
  /// A base-128 varint: `int32`, `int64`, `uint32`, `uint64`, `sint*` (zigzag), `bool`, enums.
  case varint = 0
  /// Eight little-endian bytes: `fixed64`, `sfixed64`, `double`.
  case fixed64 = 1
  /// A varint length, then that many bytes: strings, bytes, messages, packed repeated fields.
  case lengthDelimited = 2
  /// The start of a group (proto2's deprecated nesting; only ever skipped here).
  case startGroup = 3
  /// The end of a group.
  case endGroup = 4
  /// Four little-endian bytes: `fixed32`, `sfixed32`, `float`.
  case fixed32 = 5
}
