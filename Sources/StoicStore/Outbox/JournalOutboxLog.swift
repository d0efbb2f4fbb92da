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
