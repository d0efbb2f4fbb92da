/// One log record as the spool keeps it: what was logged, where, and when.
public struct LogRecord: Sendable, Hashable {
  /// The record's sequence number in the spool's log journal: unique, increasing in the order
  /// the records were written, never reused.
  public var sequence: UInt64
  /// Wall-clock time when it was logged, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var timeNanoseconds: Int64
  /// Its severity.
  public var level: LogLevel
  /// The label of the logger it was logged through.
  public var label: String
  /// The message.
  public var message: String
  /// Structured metadata (handler metadata, the metadata provider's and the call's, merged).
  public var metadata: LogMetadata
  /// The module or subsystem that logged it (swift-log's `source`).
  public var source: String
  /// The source file of the call.
  public var file: String
  /// The function of the call.
  public var function: String
  /// The line of the call.
  public var line: UInt

  /// Creates a record; every parameter is the property of the same name.
  public init(
    sequence: UInt64 = 0, timeNanoseconds: Int64, level: LogLevel, label: String,
    message: String, metadata: LogMetadata = [:], source: String = "", file: String = "",
    function: String = "", line: UInt = 0
  ) {
    self.sequence = sequence
    self.timeNanoseconds = timeNanoseconds
    self.level = level
    self.label = label
    self.message = message
    self.metadata = metadata
    self.source = source
    self.file = file
    self.function = function
    self.line = line
  }
}

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
