/// One entry of the log spool as a reader sees it: a decoded record, or one this build cannot
/// read (kept, counted, handed out with its bytes).
public enum LogEntry: Sendable, Hashable {
  /// A record this build decoded.
  case record(LogRecord)
  /// A record a newer build wrote, or one whose bytes do not check.
  case unreadable(UnreadableLogRecord)

  /// The entry's sequence number in the spool's log journal.
  public var sequence: UInt64 {
    switch self {
    case .record(let record): record.sequence
    case .unreadable(let entry): entry.sequence
    }
  }

  /// The decoded record, or `nil` for an unreadable one.
  public var record: LogRecord? {
    if case .record(let record) = self { return record }
    return nil
  }

  /// Decodes the payload `bytes` of the record numbered `sequence`: never throws, never traps.
  public init(sequence: UInt64, bytes: UnsafeRawBufferPointer) {
    do throws(LogRecordDecodingError) {
      self = .record(try LogRecordFormat.decode(bytes, sequence: sequence))
    } catch {
      self = .unreadable(
        UnreadableLogRecord(
          sequence: sequence, version: bytes.first, bytes: Array(bytes), reason: error))
    }
  }
}
