/// One record read back from a ``Journal``.
public struct JournalRecord: Sendable, Hashable {
  /// The sequence number the append returned; strictly increasing through the journal.
  public var sequence: UInt64
  /// The payload as appended.
  public var payload: [UInt8]

  /// Creates a record.
  public init(sequence: UInt64, payload: [UInt8]) {
    self.sequence = sequence
    self.payload = payload
  }
}
