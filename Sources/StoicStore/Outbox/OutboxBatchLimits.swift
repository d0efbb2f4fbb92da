/// How many entries a drain hands its delivery closure at once.
public struct OutboxBatchLimits: Sendable, Hashable {
  /// At most this many entries per batch (at least 1).
  public var maxEntries: Int
  /// At most this many item bytes per batch; an entry larger than this alone still goes, in a
  /// batch of its own.
  public var maxBytes: Int

  /// Creates limits.
  public init(maxEntries: Int, maxBytes: Int = Int.max) {
    self.maxEntries = max(maxEntries, 1)
    self.maxBytes = max(maxBytes, 1)
  }

  /// One entry at a time, sent under its own key; no batch record is written.
  public static let single = OutboxBatchLimits(maxEntries: 1)

  /// Whether these limits form persisted multi-entry batches.
  var formsBatches: Bool { maxEntries > 1 }
}
