import StoicStore
import Synchronization

extension RecordSpool where Format == LogRecordFormat {
  /// Logs one record: the time is taken here, its metadata encoded on the stack, the record
  /// sized, then encoded in place into the journal's mapped tail. The same as ``log(_:)`` with
  /// a ``LogRecordInput`` of these fields.
  ///
  /// When this returns a sequence the record is in the kernel (it survives a crash of the
  /// process); at or above ``LogSpoolOptions/durableLevel`` it is also durable (it survives a
  /// power loss), the sync shared with concurrent callers. Otherwise it becomes durable within
  /// ``LogSpoolOptions/maxDelay``.
  ///
  /// Never throws and never traps. A record that cannot be stored is counted as dropped in
  /// ``dropCounters`` and `nil` is returned: too large (``SpoolDropReason/encoding``), the
  /// spool full (``SpoolDropReason/quota``), a disk error (``SpoolDropReason/diskError``) or the
  /// spool closed (``SpoolDropReason/afterClose``, and ``SpoolEvents/recordsAfterClose`` once).
  ///
  /// Costs no allocation of its own below the durable level (the journal's mapped append and the
  /// encoding into it); at the durable level the caller waits for a sync. See BENCHMARKS.md for
  /// what it costs.
  ///
  /// - Parameters:
  ///   - level: The record's level.
  ///   - label: The logger's label.
  ///   - message: The message.
  ///   - metadata: Structured metadata.
  ///   - source: The module or subsystem that logged it.
  ///   - file: The source file of the call.
  ///   - function: The function of the call.
  ///   - line: The line of the call.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @inlinable
  @discardableResult
  public func log(
    level: LogLevel, label: String, message: String, metadata: LogMetadata = [:],
    source: String = "", file: String = #fileID, function: String = #function,
    line: UInt = #line
  ) -> UInt64? {
    log(
      LogRecordInput(
        level: level, label: label, message: message, metadata: metadata, source: source,
        file: file, function: function, line: line))
  }

  /// Logs `record`: the time is taken here, the record sized, then encoded in place into the
  /// journal's mapped tail (see ``log(level:label:message:metadata:source:file:function:line:)``
  /// for what a returned sequence guarantees, and what a drop costs). Metadata given as pairs
  /// (``LogRecordInput/init(level:label:message:metadataPairs:source:file:function:line:)``)
  /// is sized and encoded where it is, with no dictionary built for it.
  ///
  /// - Parameter record: What was logged, borrowed for the call.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @discardableResult
  public func log(_ record: LogRecordInput) -> UInt64? {
    finishAppend(write(record))
  }

  /// The log path: size, admit, append (encoded in place), account. Used for the app's records
  /// and the spool's own events alike.
  func write(_ record: LogRecordInput) -> UInt64? {
    let time = WallClock.nanoseconds()
    // Listed keys' values are replaced before anything is sized or written; `append` reads the
    // metadata it is given, never the record's.
    switch record.metadataStorage.form {
    case .dictionary(let metadata):
      return append(record, metadata: options.redaction.redacted(metadata) ?? metadata, time: time)
    case .pairs(let pairs):
      guard options.redaction.isEmpty else {
        // Redaction works on a dictionary: the pairs become one (the only allocation it adds).
        let metadata = LogMetadata(pairs: pairs)
        return append(
          record, metadata: options.redaction.redacted(metadata) ?? metadata, time: time)
      }
      return append(record, metadata: pairs, time: time)
    }
  }

  /// Sizes `record` with `metadata` (its own, as pairs or a dictionary), logged at `time`,
  /// decides whether it is durable, and appends it, encoded in place.
  ///
  /// The metadata is encoded first, on the stack, and copied into the record: one walk of it
  /// where sizing it and then encoding it took two (each copying out every key and value of a
  /// dictionary). Metadata of more than ``LogRecordFormat/metadataScratchSize`` bytes is sized
  /// and encoded where it is when it is a ``LogMetadata``; pairs are walked once more into one
  /// first, so that the size and the bytes come from the same walk (a pair's value may be a
  /// description taken at each walk: see ``LogMetadataPairs``).
  private func append(
    _ record: LogRecordInput, metadata: some LogMetadataPairs, time: Int64
  ) -> UInt64? {
    var durable = false
    if let durableLevel, record.level >= durableLevel { durable = true }
    return withUnsafeTemporaryAllocation(
      byteCount: LogRecordFormat.metadataScratchSize, alignment: 1
    ) { scratch -> UInt64? in
      if let encoded = LogRecordFormat.encodeMetadata(metadata, into: scratch) {
        let size = LogRecordFormat.encodedSize(record, encodedMetadataCount: encoded.count)
        return appendEncoded(size: size, durable: durable, time: time) { buffer in
          LogRecordFormat.encode(
            record, encodedMetadata: encoded, timeNanoseconds: time, into: buffer)
        }
      }
      let whole = (metadata as? LogMetadata) ?? LogMetadata(pairs: metadata)
      let size = LogRecordFormat.encodedSize(record, metadata: whole)
      return appendEncoded(size: size, durable: durable, time: time) { buffer in
        LogRecordFormat.encode(record, metadata: whole, timeNanoseconds: time, into: buffer)
      }
    }
  }
}
