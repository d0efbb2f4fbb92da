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

/// A record of the log spool this build cannot decode: one a newer build wrote (a higher
/// version byte), or one whose bytes do not check. It is kept in the spool as it is, never
/// dropped or misread, and handed out with its sequence, version and bytes so that a reader can
/// count it, forward it as it is, or leave it for a newer build.
public struct UnreadableLogRecord: Sendable, Hashable {
  /// The record's sequence number in the spool's log journal.
  public var sequence: UInt64
  /// The version byte it was written with (`nil` for an empty payload).
  public var version: UInt8?
  /// Its bytes, exactly as stored.
  public var bytes: [UInt8]
  /// Why this build cannot read it.
  public var reason: LogRecordDecodingError

  /// Creates a description; every parameter is the property of the same name.
  public init(sequence: UInt64, version: UInt8?, bytes: [UInt8], reason: LogRecordDecodingError) {
    self.sequence = sequence
    self.version = version
    self.bytes = bytes
    self.reason = reason
  }

  /// The record's fixed header (level and time), when it has one: readable whatever its
  /// version (see ``LogRecordFormat``).
  public var header: LogRecordHeader? {
    bytes.withUnsafeBytes { LogRecordFormat.header(of: $0) }
  }
}

/// What one read of the log spool (``RecordSpool/forEachRecord(from:through:_:)``) went over.
public struct LogReadSummary: Sendable, Hashable {
  /// Records decoded and handed out.
  public var records = 0
  /// Unreadable records handed out (the newer ones included).
  public var unreadable = 0
  /// Of ``unreadable``, the records a newer build wrote.
  public var newerVersion = 0
  /// The last sequence handed out, or `nil` when the read found nothing.
  public var lastSequence: UInt64?

  /// An empty summary.
  public init() {}

  /// Counts `entry`.
  mutating func count(_ entry: LogEntry) {
    switch entry {
    case .record: records += 1
    case .unreadable(let unreadable):
      self.unreadable += 1
      if unreadable.reason.isNewerVersion { newerVersion += 1 }
    }
    lastSequence = entry.sequence
  }
}
