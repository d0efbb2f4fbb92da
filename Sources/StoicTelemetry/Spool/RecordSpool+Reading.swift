public import StoicStore

extension RecordSpool {
  /// Calls `body` with every record after the low-water mark whose sequence is in
  /// `sequence...last`, in order, in bounded memory (the journal's read window, or two
  /// compressed blocks), without decoding: `body` gets each record's sequence and its encoded
  /// bytes, borrowed until it returns. The format's readers decode them (for logs,
  /// ``forEachRecord(from:through:_:)``); with ``LogRecordFormat/header(of:)`` a reader
  /// filters by level and time before it decodes anything.
  ///
  /// Sees the records appended before the call.
  ///
  /// - Parameters:
  ///   - sequence: The first sequence to hand out (0 or 1: from the oldest).
  ///   - last: The last sequence to hand out; the read stops there.
  ///   - body: Called with each record; what it throws ends the read.
  /// - Throws: `StoreError.Code.closed` after ``close()``; `StoreError.Code.corrupt` for a
  ///   damaged segment; what `body` throws.
  public func forEachEncodedRecord(
    from sequence: UInt64 = 0, through last: UInt64 = .max,
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) {
    guard let journal = currentJournal() else {
      throw StoreError(.closed, "the \(Format.recordKind) spool is closed", path: directory)
    }
    guard sequence <= last else { return }
    try readStoppable(journal, from: sequence) { (recordSequence, payload) throws(StoreError) in
      guard recordSequence <= last else { throw Self.stopReading }
      try body(recordSequence, payload)
    }
  }

  /// Why a read was ended early: thrown by the spool's own bodies, caught around the read.
  struct ReadStopped: Error, Sendable {}

  /// The error that ends a read early.
  static var stopReading: StoreError {
    StoreError(.other, "read stopped", cause: ReadStopped())
  }

  /// Reads the journal from `sequence`; a ``stopReading`` thrown by `body` ends the read
  /// quietly.
  func readStoppable(
    _ journal: Journal, from sequence: UInt64,
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) {
    do throws(StoreError) {
      try journal.forEachRecordBorrowing(from: sequence, body)
    } catch  where error.cause is ReadStopped {
      // Stopped on purpose.
    }
  }
}
