public import StoicStore

extension RecordSpool where Format == LogRecordFormat {
  /// Calls `body` with every record after the low-water mark whose sequence is in
  /// `sequence...last`, in order, in bounded memory (the journal's read window, or two
  /// compressed blocks), each as a ``LogEntry``: decoded, or unreadable with its bytes (a record
  /// a newer build wrote is handed out as such, never dropped or misread).
  ///
  /// Sees the records logged before the call.
  ///
  /// - Parameters:
  ///   - sequence: The first sequence to hand out (0 or 1: from the oldest).
  ///   - last: The last sequence to hand out; the read stops there.
  ///   - body: Called with each entry; what it throws ends the read.
  /// - Returns: How many records and unreadable records were handed out.
  /// - Throws: `StoreError.Code.closed` after ``close()``; `StoreError.Code.corrupt` for a
  ///   damaged segment; what `body` throws.
  @discardableResult
  public func forEachRecord(
    from sequence: UInt64 = 0, through last: UInt64 = .max,
    _ body: (LogEntry) throws(StoreError) -> Void
  ) throws(StoreError) -> LogReadSummary {
    var summary = LogReadSummary()
    try forEachEncodedRecord(from: sequence, through: last) {
      (sequence, bytes) throws(StoreError) in
      let entry = LogEntry(sequence: sequence, bytes: bytes)
      summary.count(entry)
      try body(entry)
    }
    return summary
  }

  /// At most `limit` entries from `sequence` through `last`, collected in memory: a batch for
  /// the forwarder.
  ///
  /// - Throws: As ``forEachRecord(from:through:_:)``.
  public func entries(from sequence: UInt64 = 0, through last: UInt64 = .max, limit: Int = .max)
    throws(StoreError) -> [LogEntry]
  {
    var entries: [LogEntry] = []
    guard limit > 0 else { return entries }
    do throws(StoreError) {
      try forEachRecord(from: sequence, through: last) { (entry) throws(StoreError) in
        entries.append(entry)
        if entries.count >= limit { throw Self.stopReading }
      }
    } catch  where error.cause is ReadStopped {
      // The batch is full.
    }
    return entries
  }
}
