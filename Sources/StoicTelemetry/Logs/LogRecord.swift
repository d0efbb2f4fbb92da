/// One log record as the spool keeps it: what was logged (its ``input``, the value the log
/// call handed the spool), its sequence in the spool, and when.
///
/// The input's fields read and write through the record itself (`record.message`,
/// `record.metadata["request.id"]`, `record.level = .error`): a field added to
/// ``LogRecordInput`` is a field of every record, with nothing repeated here.
@dynamicMemberLookup
public struct LogRecord: Sendable, Hashable {
  /// The record's sequence number in the spool's log journal: unique, increasing in the order
  /// the records were written, never reused.
  public var sequence: UInt64
  /// Wall-clock time when it was logged, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var timeNanoseconds: Int64
  /// What was logged: level, label, message, metadata, and where it was logged from.
  public var input: LogRecordInput

  /// Creates a record of `input`, numbered `sequence`, logged at `timeNanoseconds`.
  public init(sequence: UInt64 = 0, timeNanoseconds: Int64, input: LogRecordInput) {
    self.sequence = sequence
    self.timeNanoseconds = timeNanoseconds
    self.input = input
  }

  /// Creates a record; every parameter is the property of the same name, of the record or of
  /// its ``input``.
  public init(
    sequence: UInt64 = 0, timeNanoseconds: Int64, level: LogLevel, label: String,
    message: String, metadata: LogMetadata = [:], source: String = "", file: String = "",
    function: String = "", line: UInt = 0
  ) {
    self.init(
      sequence: sequence, timeNanoseconds: timeNanoseconds,
      input: LogRecordInput(
        level: level, label: label, message: message, metadata: metadata, source: source,
        file: file, function: function, line: line))
  }

  /// A field of the record's ``input``, read and written through the record.
  @inlinable
  public subscript<Value>(dynamicMember field: WritableKeyPath<LogRecordInput, Value>) -> Value {
    get { input[keyPath: field] }
    set { input[keyPath: field] = newValue }
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
