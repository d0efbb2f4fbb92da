/// Where a journal is damaged: carried as the ``StoreError/cause`` of a
/// ``StoreError/Code/corrupt`` error from ``Journal``.
public struct JournalDamage: Error, Sendable, Hashable, CustomStringConvertible {
  /// The damaged file.
  public var path: String
  /// The byte offset in that file where the damage starts.
  public var offset: UInt64
  /// How many bytes are damaged (0 when a whole compressed segment is refused).
  public var length: UInt64

  /// Creates a description of damage.
  public init(path: String, offset: UInt64, length: UInt64) {
    self.path = path
    self.offset = offset
    self.length = length
  }

  /// `path: N bytes at offset O`.
  public var description: String { "\(path): \(length) bytes at offset \(offset)" }
}
