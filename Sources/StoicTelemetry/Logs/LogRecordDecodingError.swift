/// Why an encoded log record could not be decoded
/// (``LogRecordFormat/decode(_:sequence:)-([UInt8],_)``). Offsets count from the start of the
/// record's payload.
public enum LogRecordDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The payload is empty: not even a version byte.
  case empty
  /// A newer build wrote the record (its version is above ``LogRecordFormat/version``): it is
  /// kept as it is, and readable by that build.
  case newerVersion(UInt8)
  /// The version byte is one no build writes (0).
  case unknownVersion(UInt8)
  /// The record ends before a field that starts at `offset` is complete.
  case truncated(offset: Int)
  /// The varint at `offset` is longer than 10 bytes, overflows 64 bits or is not in its shortest
  /// form.
  case malformedVarint(offset: Int)
  /// The string at `offset` is not valid UTF-8.
  case invalidUTF8(offset: Int)
  /// The level byte is not one of the seven levels.
  case unknownLevel(UInt8)
  /// The value at `offset` has a kind byte this version does not define.
  case unknownValueKind(UInt8, offset: Int)
  /// The container at `offset` nests deeper than ``LogRecordFormat/maximumDepth``.
  case nestedTooDeep(offset: Int)
  /// The key at `offset` appears twice in one map.
  case duplicateKey(offset: Int)
  /// Bytes follow the end of the record, from `offset`.
  case trailingBytes(offset: Int)

  /// Whether the record was written by a newer build (``newerVersion(_:)``) rather than
  /// damaged.
  public var isNewerVersion: Bool {
    if case .newerVersion = self { return true }
    return false
  }

  /// What is wrong, in a few words.
  public var description: String {
    switch self {
    case .empty: "empty record"
    case .newerVersion(let version): "written by a newer build (format version \(version))"
    case .unknownVersion(let version): "unknown format version \(version)"
    case .truncated(let offset): "truncated at offset \(offset)"
    case .malformedVarint(let offset): "malformed varint at offset \(offset)"
    case .invalidUTF8(let offset): "invalid UTF-8 in the string at offset \(offset)"
    case .unknownLevel(let level): "unknown level \(level)"
    case .unknownValueKind(let kind, let offset):
      "unknown metadata value kind \(kind) at offset \(offset)"
    case .nestedTooDeep(let offset): "metadata nested too deep at offset \(offset)"
    case .duplicateKey(let offset): "duplicate metadata key at offset \(offset)"
    case .trailingBytes(let offset): "trailing bytes from offset \(offset)"
    }
  }
}
