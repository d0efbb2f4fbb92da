/// The self-describing encoding of an entry, shared by the enqueue record and the snapshot.
///
/// Tags: 1 key (UTF-8, required), 2 item (required), 3 state (u8), 4 created-at (i64 ms),
/// 5 last error, 6 attempts (u64), 7 owned files, 8 files to upload, 9 batch key.
/// A missing optional field takes the default that loses nothing: state `queued`, created-at
/// 0 (the epoch, so a rescued entry drains first), no error, no files. A missing key or item
/// cannot be defaulted: the entry is unreadable and kept as it is.
extension StoredEntry {
  enum Tag {
    static let key: UInt8 = 1
    static let item: UInt8 = 2
    static let state: UInt8 = 3
    static let createdAt: UInt8 = 4
    static let lastError: UInt8 = 5
    static let attempts: UInt8 = 6
    static let ownedFiles: UInt8 = 7
    static let filesToUpload: UInt8 = 8
    static let batchKey: UInt8 = 9
    static let known: Set<UInt8> = [1, 2, 3, 4, 5, 6, 7, 8, 9]
  }

  var fields: OutboxFields {
    var fields = OutboxFields()
    fields.set(Tag.key, string: key)
    fields.set(Tag.item, item)
    if state != .queued { fields.set(Tag.state, [state.rawValue]) }
    fields.set(Tag.createdAt, u64: UInt64(bitPattern: createdAt))
    if let lastError { fields.set(Tag.lastError, string: lastError) }
    if attempts > 0 { fields.set(Tag.attempts, u64: UInt64(attempts)) }
    if !ownedFiles.isEmpty { fields.set(Tag.ownedFiles, strings: ownedFiles) }
    if !filesToUpload.isEmpty { fields.set(Tag.filesToUpload, strings: filesToUpload) }
    if let batchKey { fields.set(Tag.batchKey, string: batchKey) }
    for field in unknownFields { fields.fields.append(field) }
    return fields
  }

  /// The entry the fields describe, or the reason they cannot be one.
  static func decode(_ fields: OutboxFields) -> Result<StoredEntry, UnreadableReason> {
    guard let keyBytes = fields[Tag.key] else { return .failure(.init("the entry has no key")) }
    guard let key = String(validating: keyBytes, as: UTF8.self), !key.isEmpty else {
      return .failure(.init("the entry's key is not valid UTF-8"))
    }
    guard let item = fields[Tag.item] else {
      return .failure(.init("the entry \(key) has no item"))
    }
    var entry = StoredEntry(key: key, item: item)
    if let raw = fields[Tag.state]?.first, let state = OutboxEntryState(rawValue: raw) {
      entry.state = state
    }
    if let createdAt = fields.u64(Tag.createdAt) {
      entry.createdAt = Int64(bitPattern: createdAt)
    }
    entry.lastError = fields.string(Tag.lastError)
    if let attempts = fields.u64(Tag.attempts) {
      entry.attempts = Int(clamping: attempts)
    }
    entry.ownedFiles = fields.strings(Tag.ownedFiles) ?? []
    entry.filesToUpload = fields.strings(Tag.filesToUpload) ?? []
    entry.batchKey = fields.string(Tag.batchKey)
    entry.unknownFields = fields.fields.filter { !Tag.known.contains($0.tag) }
    return .success(entry)
  }
}

/// Why stored bytes could not be read.
struct UnreadableReason: Error, Sendable, Hashable {
  let text: String
  init(_ text: String) { self.text = text }
}
