/// A structured metadata value of a log record, as swift-log's `Logger.MetadataValue` has them.
///
/// Not `indirect`: the nested cases hold arrays and dictionaries, which are stored out of line
/// already, so a string value costs no box of its own.
public enum LogMetadataValue: Sendable, Hashable, CustomStringConvertible {
  /// A string.
  case string(String)
  /// A value that described itself as a string when it was logged (swift-log's
  /// `.stringConvertible`): only its description is kept.
  case stringConvertible(String)
  /// Nested key–value pairs.
  case dictionary([String: LogMetadataValue])
  /// A list of values.
  case array([LogMetadataValue])

  /// The value as text: a string as it is, a dictionary as `[key: value, …]` with sorted keys,
  /// an array as `[value, …]`.
  public var description: String {
    switch self {
    case .string(let text), .stringConvertible(let text):
      text
    case .dictionary(let entries):
      "["
        + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        .joined(separator: ", ") + "]"
    case .array(let values):
      "[" + values.map(\.description).joined(separator: ", ") + "]"
    }
  }
}

/// A log record's metadata: keys to values.
public typealias LogMetadata = [String: LogMetadataValue]
