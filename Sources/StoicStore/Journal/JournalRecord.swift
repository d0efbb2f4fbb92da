/// One record read back from a ``Journal``.
public struct JournalRecord: Sendable, Hashable {
  /// The sequence number the append returned; strictly increasing through the journal.
  public var sequence: UInt64
  /// The payload as appended.
  public var payload: [UInt8]

  /// The payload as text, if it is valid UTF-8; `nil` otherwise (nothing is replaced or
  /// guessed).
  public var text: String? {
    String(validating: payload, as: UTF8.self)
  }

  /// Creates a record.
  public init(sequence: UInt64, payload: [UInt8]) {
    self.sequence = sequence
    self.payload = payload
  }
}
