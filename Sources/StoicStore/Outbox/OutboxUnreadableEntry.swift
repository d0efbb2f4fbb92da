/// Something in the outbox this build cannot read, kept byte for byte and counted: an entry
/// the codec cannot decode, a snapshot entry missing a field that has no safe default (its
/// key), or a record of a type or version this build does not know.
public struct OutboxUnreadableEntry: Sendable, Hashable {
  /// The entry's key, when it could be read.
  public let key: String?
  /// How many stored bytes are kept for it.
  public let byteCount: Int
  /// Why it cannot be read.
  public let reason: String
}
