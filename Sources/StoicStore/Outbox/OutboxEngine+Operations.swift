extension OutboxEngine {
  /// Enqueues `item` under `key`, durably; does nothing for a key already held or recently
  /// delivered.
  ///
  /// - Returns: Whether a new entry was written.
  func enqueue(
    _ item: Item, key: String, ownedFiles: [String], filesToUpload: [String]
  ) throws(StoreError) -> Bool {
    try checkKey(key)
    guard !ledger.knows(key) else { return false }
    let bytes = try codec.encode(item)
    var entry = StoredEntry(key: key, item: bytes)
    entry.createdAt = options.clock.now()
    entry.ownedFiles = ownedFiles
    entry.filesToUpload = filesToUpload
    try write(.enqueue(entry))
    storeDecoded(item, for: key)
    compactIfDue()
    return true
  }

  /// Enqueues several items under their keys with one durable write; skips keys already held
  /// or recently delivered, and a key given twice after its first time.
  ///
  /// - Returns: How many entries were written.
  /// - Throws: ``StoreError/Code/invalidArgument`` for a bad key (nothing written), or the
  ///   log's error (a prefix of the entries may have been written, as after a crash: none is
  ///   applied, and the next open finds the ones that are durable).
  func enqueue(contentsOf entries: [(item: Item, key: String)]) throws(StoreError) -> Int {
    var records: [OutboxRecord] = []
    var decoded: [(String, Item)] = []
    var keys: Set<String> = []
    for (item, key) in entries {
      try checkKey(key)
      guard !ledger.knows(key), keys.insert(key).inserted else { continue }
      var entry = StoredEntry(key: key, item: try codec.encode(item))
      entry.createdAt = options.clock.now()
      records.append(.enqueue(entry))
      decoded.append((key, item))
    }
    guard !records.isEmpty else { return 0 }
    try writeAll(records)
    for (key, item) in decoded { storeDecoded(item, for: key) }
    compactIfDue()
    return records.count
  }

  /// Refuses an empty key or one longer than the options allow.
  private func checkKey(_ key: String) throws(StoreError) {
    let keyLength = key.utf8.count
    guard keyLength > 0, keyLength <= min(options.maxKeyLength, Int(UInt16.max)) else {
      throw StoreError(
        .invalidArgument,
        "an outbox key must be 1 to \(options.maxKeyLength) bytes of UTF-8, not \(keyLength)")
    }
  }

  /// Acknowledges a delivered entry, or every entry of a persisted batch, by key.
  ///
  /// - Throws: ``StoreError/Code/notFound`` for a key the outbox does not hold.
  func acknowledge(_ key: String) throws(StoreError) {
    if ledger.index(of: key) != nil {
      try writeAcknowledgement(.acknowledge(key: key))
    } else if !ledger.members(ofBatch: key).isEmpty {
      try writeAcknowledgement(.acknowledgeBatch(batchKey: key))
    } else {
      throw StoreError(.notFound, "the outbox holds no entry or batch with key \(key)")
    }
    afterRetirement()
  }

  /// Retires an entry without delivering it (its owned files are removed).
  func discard(_ key: String) throws(StoreError) {
    guard ledger.index(of: key) != nil else {
      throw StoreError(.notFound, "the outbox holds no entry with key \(key)")
    }
    try write(.discard(key: key))
    afterRetirement()
  }

  /// Puts a parked entry back in line, at the end.
  func requeue(_ key: String) throws(StoreError) {
    guard let entry = ledger.entry(key) else {
      throw StoreError(.notFound, "the outbox holds no entry with key \(key)")
    }
    guard entry.state == .needsAttention else {
      throw StoreError(.invalidArgument, "entry \(key) is \(entry.state), not parked")
    }
    try write(.requeue(key: key))
  }

  /// Records that `file`, one of the entry's files to upload, has been uploaded.
  func markUploaded(_ file: String, of key: String) throws(StoreError) {
    guard let entry = ledger.entry(key) else {
      throw StoreError(.notFound, "the outbox holds no entry with key \(key)")
    }
    guard entry.filesToUpload.contains(file) else {
      throw StoreError(.notFound, "entry \(key) has no file \(file) left to upload")
    }
    try write(.uploaded(key: key, file: file))
  }

  /// Drops decoded items of retired entries and removes their owned files.
  func afterRetirement() {
    forgetItems(except: Set(ledger.entries.map(\.key)))
    removeOwnedFiles()
  }

  /// Removes the owned files of retired entries. A failure is reported
  /// (`store.outbox_maintenance_failed`) and the file kept on the list to try again later; it
  /// never fails the acknowledgement that retired the entry.
  ///
  /// A file that an entry still held owns is left alone and dropped from the list: its name
  /// was reused (or shared) after the retired entry's removal was recorded, and a replay of
  /// that retirement at open must not remove it; it goes when its own entry retires.
  func removeOwnedFiles() {
    guard !ledger.fileRemovals.isEmpty else { return }
    let ownedByHeld = Set(ledger.entries.flatMap(\.ownedFiles))
    var remaining: [String] = []
    var directories: [String] = []
    for path in ledger.fileRemovals where !ownedByHeld.contains(path) {
      do throws(StoreError) {
        if try fileSystem.fileSize(path) != nil {
          try fileSystem.remove(path)
          let directory = StorePath.directory(of: path)
          if !directories.contains(directory) { directories.append(directory) }
        }
      } catch  where error.code == .notFound {
        continue  // Already gone: nothing to remove.
      } catch {
        remaining.append(path)
        events.emit(
          StoreEvents.outboxMaintenanceFailed,
          [("operation", "remove owned file \(path)"), ("error", error.description)])
      }
    }
    for directory in directories {
      do throws(StoreError) {
        try fileSystem.syncDirectory(directory)
      } catch {
        // The removals may not be durable: keep them on the list to do again.
        let removed = ledger.fileRemovals.filter {
          StorePath.directory(of: $0) == directory && !remaining.contains($0)
            && !ownedByHeld.contains($0)
        }
        remaining.append(contentsOf: removed)
        events.emit(
          StoreEvents.outboxMaintenanceFailed,
          [("operation", "sync directory \(directory)"), ("error", error.description)])
      }
    }
    setFileRemovals(remaining)
  }
}
