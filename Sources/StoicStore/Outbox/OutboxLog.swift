/// The durable log the outbox writes through: the journal, or a stand-in in unit tests.
protocol OutboxLog: AnyObject {
  /// The last snapshot's payload (nil if none) and every record after it, in order.
  func load() throws(StoreError) -> (snapshot: [UInt8]?, records: [[UInt8]])
  /// Appends one record; durable when it returns.
  func append(_ record: [UInt8]) throws(StoreError)
  /// Appends records in order, durable together when it returns; a crash before it returns
  /// keeps a prefix of them (possibly none).
  func append(batch records: [[UInt8]]) throws(StoreError)
  /// Replaces everything appended so far by `snapshot`, atomically.
  func compact(snapshot: [UInt8]) throws(StoreError)
  /// Makes everything durable and releases the log.
  func close() throws(StoreError)
}

extension OutboxLog {
  /// One append after another: a prefix survives any crash.
  func append(batch records: [[UInt8]]) throws(StoreError) {
    for record in records { try append(record) }
  }
}

/// The outbox's log on a ``Journal``: each record one durable append (a batch of records one
/// append with one sync: frames written in order, so a crash keeps a prefix), compaction one
/// snapshot covering everything appended so far (the journal stores it zstd-compressed, in a
/// checkpoint replaced atomically, and only then drops the records it covers).
final class JournalOutboxLog: OutboxLog {
  let journal: Journal

  init(journal: Journal) {
    self.journal = journal
  }

  func load() throws(StoreError) -> (snapshot: [UInt8]?, records: [[UInt8]]) {
    let snapshot = try journal.snapshot()
    var records: [[UInt8]] = []
    try journal.forEachRecord(from: (snapshot?.sequence ?? 0) + 1) {
      (record) throws(StoreError) in records.append(record.payload)
    }
    return (snapshot?.bytes, records)
  }

  func append(_ record: [UInt8]) throws(StoreError) {
    try journal.append(record, durable: true)
  }

  func append(batch records: [[UInt8]]) throws(StoreError) {
    try journal.append(batch: records, durable: true)
  }

  func compact(snapshot: [UInt8]) throws(StoreError) {
    try journal.writeSnapshot(covering: journal.lastSequence, bytes: snapshot)
  }

  func close() throws(StoreError) {
    try journal.close()
  }
}
