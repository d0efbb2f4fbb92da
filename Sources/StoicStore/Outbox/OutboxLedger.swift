/// The outbox's state in memory, built by applying records in order.
///
/// Live operations and recovery share it: an operation appends its record durably and then
/// applies the very same record here, and recovery applies the snapshot and the log's
/// records, so what the outbox holds after a restart is what it held before.
struct OutboxLedger: Sendable {
  /// Pending, in-flight and parked entries (readable or not), in queue order.
  var entries: [StoredEntry] = []
  /// Snapshot entries that could not be read at all (no key, no item), kept byte for byte.
  var unreadableEntries: [(bytes: [UInt8], reason: String)] = []
  /// Journal records this build cannot read, kept byte for byte.
  var unknownRecords: [(bytes: [UInt8], reason: String)] = []
  /// Snapshot sections this build does not know, kept and written back.
  var unknownSections: [(tag: UInt8, value: [UInt8])] = []
  /// Keys of retired entries (oldest first), so that a late duplicate is recognised.
  var retiredKeys: [String] = []
  private(set) var retiredKeySet: Set<String> = []
  /// Files owned by retired entries that still have to be removed.
  var fileRemovals: [String] = []
  /// Duplicate enqueues found on disk and ignored.
  var duplicatesHealed = 0
  /// Retirement removes the files still to upload instead of the owned ones (a test defect).
  var retireUsesUploadList = false

  func index(of key: String) -> Int? {
    entries.firstIndex { $0.key == key }
  }

  func entry(_ key: String) -> StoredEntry? {
    index(of: key).map { entries[$0] }
  }

  func isRetired(_ key: String) -> Bool { retiredKeySet.contains(key) }

  /// Whether `key` is held (pending, parked or unreadable) or was recently delivered.
  func knows(_ key: String) -> Bool {
    isRetired(key) || index(of: key) != nil
  }

  func members(ofBatch batchKey: String) -> [StoredEntry] {
    entries.filter { $0.batchKey == batchKey }
  }

  func indices(of target: OutboxTarget) -> [Int] {
    switch target {
    case .entry(let key): index(of: key).map { [$0] } ?? []
    case .batch(let key): entries.indices.filter { entries[$0].batchKey == key }
    }
  }

  /// Applies one record. Records about keys the ledger does not hold change nothing.
  mutating func apply(_ record: OutboxRecord) {
    switch record {
    case .enqueue(let entry):
      if knows(entry.key) {
        duplicatesHealed += 1
      } else {
        entries.append(entry)
      }
    case .acknowledge(let key), .discard(let key):
      retire(indices(of: .entry(key)))
    case .acknowledgeBatch(let batchKey):
      retire(indices(of: .batch(batchKey)))
    case .park(let target, let error):
      for index in indices(of: target) {
        entries[index].state = .needsAttention
        entries[index].lastError = error
        entries[index].batchKey = nil
      }
    case .noteError(let target, let error):
      for index in indices(of: target) { entries[index].lastError = error }
    case .requeue(let key):
      guard let index = index(of: key) else { return }
      var entry = entries.remove(at: index)
      entry.state = .queued
      entry.attempts = 0
      entry.batchKey = nil
      entries.append(entry)
    case .formBatch(let batchKey, let keys):
      for key in keys {
        guard let index = index(of: key), entries[index].batchKey == nil,
          entries[index].state != .needsAttention
        else { continue }
        entries[index].batchKey = batchKey
      }
    case .attempt(let target):
      for index in indices(of: target) {
        entries[index].state = .inFlight
        entries[index].attempts += 1
      }
    case .uploaded(let key, let file):
      guard let index = index(of: key),
        let position = entries[index].filesToUpload.firstIndex(of: file)
      else { return }
      entries[index].filesToUpload.remove(at: position)
    }
  }

  /// Puts every in-flight entry back in line (at open: its send was interrupted).
  mutating func requeueInFlight() {
    for index in entries.indices where entries[index].state == .inFlight {
      entries[index].state = .queued
    }
  }

  /// Records `key` as retired (delivered or discarded).
  mutating func remember(retired key: String) {
    guard retiredKeySet.insert(key).inserted else { return }
    retiredKeys.append(key)
  }

  /// Keeps only the newest `limit` retired keys.
  mutating func forgetRetired(keeping limit: Int) {
    guard retiredKeys.count > limit else { return }
    let dropped = retiredKeys.prefix(retiredKeys.count - max(limit, 0))
    for key in dropped { retiredKeySet.remove(key) }
    retiredKeys.removeFirst(dropped.count)
  }

  private mutating func retire(_ indices: [Int]) {
    for index in indices.sorted(by: >) {
      let entry = entries.remove(at: index)
      remember(retired: entry.key)
      let files = retireUsesUploadList ? entry.filesToUpload : entry.ownedFiles
      for file in files where !fileRemovals.contains(file) { fileRemovals.append(file) }
    }
  }
}

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
