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
