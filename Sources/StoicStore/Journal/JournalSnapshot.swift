/// The state a caller stored with ``Journal/writeSnapshot(covering:bytes:)``.
public struct JournalSnapshot: Sendable, Hashable {
  /// The last sequence the snapshot covers: records up to it are dropped, later ones replay on
  /// top of ``bytes``.
  public var sequence: UInt64
  /// The caller's bytes, as given (stored zstd-compressed).
  public var bytes: [UInt8]

  /// Creates a snapshot value.
  public init(sequence: UInt64, bytes: [UInt8]) {
    self.sequence = sequence
    self.bytes = bytes
  }
}
