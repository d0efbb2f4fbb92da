/// The outbox's synchronous core: the ledger, the journal it is persisted in, and the codec.
///
/// Every change is a record appended durably and then applied to the ledger. The ``Outbox``
/// actor owns one engine and runs its async delivery loop over ``OutboxDrain``.
final class OutboxEngine<Item: Sendable> {
  private(set) var ledger: OutboxLedger
  private(set) var items: [String: Item] = [:]
  private let log: any OutboxLog
  let codec: OutboxCodec<Item>
  let fileSystem: any FileSystem
  let events: EventSink
  let options: OutboxOptions
  private var recordsSinceCompaction = 0
  /// The receiver asked not to be sent to before these times (ms since the epoch), by lane
  /// (``OutboxLanes``; the one lane `""` when the drain has none).
  var notBefore: [String: Int64] = [:]

  /// Loads the snapshot and the log, heals duplicates, puts in-flight entries back in line,
  /// decodes items (keeping what cannot be decoded) and retries pending owned-file removals.
  init(
    log: any OutboxLog, codec: OutboxCodec<Item>, fileSystem: any FileSystem,
    options: OutboxOptions, events: EventSink
  ) throws(StoreError) {
    self.log = log
    self.codec = codec
    self.fileSystem = fileSystem
    self.options = options
    self.events = events
    let loaded = try log.load()
    var ledger = OutboxLedger()
    var records = loaded.records
    if let snapshot = loaded.snapshot {
      let decoded = try OutboxSnapshot.decode(snapshot, maxSize: options.maxSnapshotSize)
      ledger = decoded.ledger
      records = decoded.records + records
    }
    ledger.retireUsesUploadList = options.mutations.contains(.retireUsesUploadList)
    for bytes in records {
      switch OutboxRecord.decode(bytes) {
      case .success(let record): ledger.apply(record)
      case .failure(let reason): ledger.unknownRecords.append((bytes, reason.text))
      }
    }
    ledger.requeueInFlight()
    recordsSinceCompaction = loaded.records.count
    self.ledger = ledger
    for index in self.ledger.entries.indices {
      let entry = self.ledger.entries[index]
      do throws(StoreError) {
        items[entry.key] = try codec.decode(entry.item)
      } catch {
        self.ledger.entries[index].unreadableReason = error.message
      }
    }
    let unreadable = unreadableEntries.count
    if unreadable > 0 {
      events.emit(
        StoreEvents.outboxUnreadable, [("count", String(unreadable))])
    }
    removeOwnedFiles()
  }

  // MARK: Records

  /// Appends `record` durably, then applies it.
  func write(_ record: OutboxRecord) throws(StoreError) {
    try log.append(record.encoded())
    ledger.apply(record)
    recordsSinceCompaction += 1
  }

  /// Appends `records` durably with one write, then applies them.
  func writeAll(_ records: [OutboxRecord]) throws(StoreError) {
    try log.append(batch: records.map { $0.encoded() })
    for record in records { ledger.apply(record) }
    recordsSinceCompaction += records.count
  }

  /// Writes an acknowledgement (or, under the test defect, only applies it).
  func writeAcknowledgement(_ record: OutboxRecord) throws(StoreError) {
    if options.mutations.contains(.skipAcknowledgementWrite) {
      ledger.apply(record)
    } else {
      try write(record)
    }
  }

  /// Compacts when enough records have accumulated; a failure is reported, not thrown.
  func compactIfDue() {
    guard let threshold = options.compactAfterRecords, recordsSinceCompaction >= threshold
    else { return }
    do throws(StoreError) {
      try compact()
    } catch {
      events.emit(
        StoreEvents.outboxMaintenanceFailed,
        [("operation", "compaction"), ("error", error.description)])
    }
  }

  /// Writes pending, parked and unreadable entries (and what this build cannot read) as a
  /// zstd-compressed snapshot through the journal.
  func compact() throws(StoreError) {
    removeOwnedFiles()
    var trimmed = ledger
    trimmed.forgetRetired(keeping: options.rememberedDeliveredKeys)
    try log.compact(snapshot: try OutboxSnapshot.encode(trimmed, mutations: options.mutations))
    ledger.forgetRetired(keeping: options.rememberedDeliveredKeys)
    recordsSinceCompaction = 0
  }

  func setFileRemovals(_ files: [String]) { ledger.fileRemovals = files }

  /// Sets the in-memory state of entries (an interrupted send going back in line).
  func setState(_ state: OutboxEntryState, forKeys keys: [String]) {
    for key in keys {
      guard let index = ledger.index(of: key) else { continue }
      ledger.entries[index].state = state
    }
  }

  /// Closes the log.
  func close() throws(StoreError) {
    try log.close()
  }

  // MARK: Views

  func item(for key: String) -> Item? { items[key] }

  func storeDecoded(_ item: Item, for key: String) { items[key] = item }

  func forgetItems(except keys: Set<String>) {
    items = items.filter { keys.contains($0.key) }
  }

  func publicEntry(_ entry: StoredEntry) -> OutboxEntry<Item>? {
    guard let item = items[entry.key], entry.isReadable else { return nil }
    return OutboxEntry(
      key: entry.key, item: item, state: entry.state, createdAt: entry.createdAt,
      lastError: entry.lastError, attempts: entry.attempts, ownedFiles: entry.ownedFiles,
      filesToUpload: entry.filesToUpload, batchKey: entry.batchKey)
  }

  var unreadableEntries: [OutboxUnreadableEntry] {
    let items = ledger.entries.compactMap { entry -> OutboxUnreadableEntry? in
      guard let reason = entry.unreadableReason else { return nil }
      return OutboxUnreadableEntry(key: entry.key, byteCount: entry.item.count, reason: reason)
    }
    let raw = ledger.unreadableEntries.map {
      OutboxUnreadableEntry(key: nil, byteCount: $0.bytes.count, reason: $0.reason)
    }
    let records = ledger.unknownRecords.map {
      OutboxUnreadableEntry(key: nil, byteCount: $0.bytes.count, reason: $0.reason)
    }
    return items + raw + records
  }
}
