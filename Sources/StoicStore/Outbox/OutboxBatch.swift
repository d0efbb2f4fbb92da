/// What a delivery closure sends at once: one entry, or a batch of entries under one key.
public struct OutboxBatch<Item: Sendable>: Sendable {
  /// The idempotency key to send (for example as an `Idempotency-Key` header): the entry's own
  /// key for a single entry, a key minted and persisted with the batch otherwise. A batch
  /// resent after a restart carries the same key and the same entries.
  public let key: String
  /// The entries, in queue order.
  public let entries: [OutboxEntry<Item>]
  /// Whether this is a persisted multi-entry batch rather than a single entry under its own
  /// key.
  public let isBatch: Bool
  /// Which attempt this is within the current drain (1 for the first send).
  public let attempt: Int
}
