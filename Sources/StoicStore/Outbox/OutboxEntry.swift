/// One entry of an ``Outbox``, as the app sees it.
public struct OutboxEntry<Item: Sendable>: Sendable {
  /// The idempotency key the app gave at enqueue; sent with every delivery of this entry (or
  /// of the batch it belongs to, under the batch's key).
  public let key: String
  /// The item.
  public let item: Item
  /// Where the entry stands.
  public let state: OutboxEntryState
  /// When it was enqueued, in milliseconds since the Unix epoch (0 when an older format did
  /// not record it: such an entry drains first).
  public let createdAt: Int64
  /// The reason of the last failed attempt, if any (the reason it was parked, for a parked
  /// entry).
  public let lastError: String?
  /// Delivery attempts made so far (reset when the app re-queues a parked entry).
  public let attempts: Int
  /// Files the entry owns: removed when the entry retires (delivered, or discarded by the
  /// app). Never consumed by uploads.
  public let ownedFiles: [String]
  /// Files still to upload, consumed by ``Outbox/markUploaded(_:of:)`` as uploads land. This
  /// list is not the list of files to delete.
  public let filesToUpload: [String]
  /// The key of the batch the entry is bound to, once a batch holding it has been persisted.
  public let batchKey: String?
}

/// Where an outbox entry stands, as an app can show it.
public enum OutboxEntryState: UInt8, Sendable, Hashable, CustomStringConvertible {
  /// Waiting its turn. An entry found in flight when the outbox opens is put back here.
  case queued = 0
  /// Being sent right now.
  case inFlight = 1
  /// Delivered and acknowledged; it has left the outbox (its owned files are removed).
  case delivered = 2
  /// The receiver refused it permanently: parked, kept on disk with its last error, until the
  /// app re-queues or discards it.
  case needsAttention = 3

  /// `queued`, `inFlight`, `delivered` or `needsAttention`.
  public var description: String {
    switch self {
    case .queued: "queued"
    case .inFlight: "inFlight"
    case .delivered: "delivered"
    case .needsAttention: "needsAttention"
    }
  }
}

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
