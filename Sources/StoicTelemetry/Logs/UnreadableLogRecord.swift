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
