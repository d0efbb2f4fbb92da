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
