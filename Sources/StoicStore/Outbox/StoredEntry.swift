/// An entry as the outbox stores it: the item as bytes, with its bookkeeping.
struct StoredEntry: Sendable {
  var key: String
  var item: [UInt8]
  var createdAt: Int64 = 0
  var state: OutboxEntryState = .queued
  var lastError: String?
  var attempts: Int = 0
  var ownedFiles: [String] = []
  var filesToUpload: [String] = []
  var batchKey: String?
  /// Fields written by a newer build that this one does not know; kept and written back.
  var unknownFields: [(tag: UInt8, value: [UInt8])] = []
  /// Why the codec could not decode the item, when it could not (the entry is then kept,
  /// counted and never delivered).
  var unreadableReason: String?

  var isReadable: Bool { unreadableReason == nil }
}
