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
