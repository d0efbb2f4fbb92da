@_spi(Formats) public import StoicStore

/// The durable span spool: each span's start and end as records of ``SpanRecordFormat`` in a
/// journal, kept within a byte limit and an age: the ``RecordSpool`` of spans, with its
/// guarantees.
///
/// A span's start is in the kernel when ``RecordSpool/start(_:)`` returns, and its end (the whole
/// span) when ``RecordSpool/end(_:)`` does: a crash of the process one instruction later loses
/// neither. A start whose end is not in the spool when it is opened again is a span the crash
/// cut short: ``RecordSpool/endUnfinishedSpans(at:from:)`` ends it as unfinished
/// (``SpanEnd/unfinished(_:at:)``) at the time of the last record the spool holds, the last
/// time the spool can prove the process was alive. The telemetry spool does that at open, and
/// at close for the spans still open then (at the time of the close).
///
/// The forwarder exports ends (each the whole span) and skips starts; it releases what it
/// sent with ``RecordSpool/dropEndedThrough(_:)``, which carries the start of every span still
/// open past the drop, so that a span outliving many batches is still ended after a crash.
public typealias SpanSpool = RecordSpool<SpanRecordFormat>

extension RecordSpool where Format == SpanRecordFormat {
  /// Appends a span's start. Never throws, never traps, never waits for the disk: a start that
  /// cannot be stored is counted as dropped (as an append of any record spool) and `nil` is
  /// returned.
  ///
  /// - Parameter start: The span's start.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @discardableResult
  public func start(_ start: SpanStart) -> UInt64? {
    finishAppend(
      appendSpanRecord(durable: false, size: { SpanRecordFormat.encodedSize(start) }) {
        SpanRecordFormat.write(start, to: &$0)
      })
  }

  /// Appends a span's end: the whole span. An end with status error is durable before the call
  /// returns when ``LogSpoolOptions/durableLevel`` is `.error` or lower (as an error log record
  /// would be); any other end becomes durable within ``LogSpoolOptions/maxDelay``. Otherwise as
  /// ``start(_:)``.
  ///
  /// - Parameter end: The span.
  /// - Returns: The record's sequence, or `nil` when it was dropped (and counted).
  @discardableResult
  public func end(_ end: SpanEnd) -> UInt64? {
    var durable = false
    if end.status.code == .error, let durableLevel, durableLevel <= .error { durable = true }
    return finishAppend(
      appendSpanRecord(durable: durable, size: { SpanRecordFormat.encodedSize(end) }) {
        SpanRecordFormat.write(end, to: &$0)
      })
  }

  /// Appends the record `write` encodes, encoded once: on the stack (a record of less than
  /// ``SpanRecordFormat/scratchSize`` bytes), then copied into the journal's mapped tail, where
  /// sizing it and then encoding it walked it twice (converting every attribute each time). A
  /// larger record is sized (`size`) and encoded where it goes.
  private func appendSpanRecord(
    durable: Bool, size: () -> Int, write: (inout ByteWriter<BoundedBytes>) -> Void
  ) -> UInt64? {
    let time = WallClock.nanoseconds()
    return withUnsafeTemporaryAllocation(
      byteCount: SpanRecordFormat.scratchSize, alignment: 1
    ) { scratch -> UInt64? in
      var writer = ByteWriter(into: BoundedBytes(scratch))
      write(&writer)
      // A bounded writer stops at the end: a record cut short leaves it exactly full.
      if writer.offset < scratch.count {
        let encoded = UnsafeRawBufferPointer(rebasing: scratch[0..<writer.offset])
        return appendEncoded(size: encoded.count, durable: durable, time: time) { buffer in
          buffer.copyMemory(from: encoded)
        }
      }
      return appendEncoded(size: size(), durable: durable, time: time) { buffer in
        var writer = ByteWriter(into: BoundedBytes(buffer))
        write(&writer)
      }
    }
  }

  /// Calls `body` with every record whose sequence is in `sequence...last`, in order, decoded,
  /// or with the error that kept it from decoding (a newer build's record among them: kept,
  /// never misread).
  ///
  /// - Throws: As ``forEachEncodedRecord(from:through:_:)``.
  public func forEachSpanRecord(
    from sequence: UInt64 = 0, through last: UInt64 = .max,
    _ body: (UInt64, Result<SpanRecord, LogRecordDecodingError>) throws(StoreError) -> Void
  ) throws(StoreError) {
    try forEachEncodedRecord(from: sequence, through: last) {
      (sequence, bytes) throws(StoreError) in
      let record = Result { () throws(LogRecordDecodingError) in
        try SpanRecordFormat.decode(bytes)
      }
      try body(sequence, record)
    }
  }

  /// The spans whose start is in the spool and whose end is not, and the latest time a record
  /// of the spool carries (`nil` when it holds none), among the records from `sequence` on.
  ///
  /// - Parameter sequence: The first record to read: 0 (every record) at open; at close, the
  ///   first this process appended (every span started before it was ended at open).
  /// - Throws: As ``forEachEncodedRecord(from:through:_:)``.
  public func openSpans(from sequence: UInt64 = 0) throws(StoreError) -> (
    starts: [(sequence: UInt64, start: SpanStart)], lastTimeNanoseconds: Int64?
  ) {
    // Each span's first start, kept as its bytes while its end is not read: only the starts
    // left open at the end are decoded (a close reads every span the process wrote).
    var starts: [SpanKey: (sequence: UInt64, bytes: [UInt8])] = [:]
    var ended = Set<SpanKey>()
    var last: Int64?
    try forEachEncodedRecord(from: sequence) { (sequence, bytes) throws(StoreError) in
      guard let header = SpanRecordFormat.header(of: bytes) else { return }
      last = max(last ?? header.timeNanoseconds, header.timeNanoseconds)
      let key = SpanKey(traceID: header.traceID, spanID: header.spanID)
      switch header.recordKind {
      case SpanRecordFormat.recordKindEnd:
        ended.insert(key)
        starts[key] = nil
      case SpanRecordFormat.recordKindStart where starts[key] == nil && !ended.contains(key):
        // A start carried past a drop repeats an earlier one: the first is kept.
        starts[key] = (sequence, Array(bytes))
      default:
        break
      }
    }
    var open: [(sequence: UInt64, start: SpanStart)] = []
    for (sequence, bytes) in starts.values.sorted(by: { $0.sequence < $1.sequence }) {
      if case .start(let start)? = try? SpanRecordFormat.decode(bytes) {
        open.append((sequence, start))
      }
    }
    return (open, last)
  }

  /// Ends every span whose start is in the spool and whose end is not, as unfinished
  /// (``SpanEnd/unfinished(_:at:)``), at `time`, or, when `nil`, at the time of the last
  /// record the spool holds; then makes the ends durable. Run at open (the spans a crash cut
  /// short: the process that started them is gone) and at close (the spans still open).
  /// A crash while it runs leaves some ended and the rest still open: the next run ends those,
  /// none twice.
  ///
  /// - Parameters:
  ///   - time: When they ended, in nanoseconds since 1970; `nil` for the last record's time.
  ///   - sequence: The first record to read (see ``openSpans(from:)``): at close, the first
  ///     this process appended, so that a close reads what the process wrote, not the spool.
  /// - Returns: The spans ended.
  /// - Throws: The read's and the sync's errors; `StoreError.Code.closed` after ``close()``.
  @discardableResult
  public func endUnfinishedSpans(at time: Int64? = nil, from sequence: UInt64 = 0)
    throws(StoreError) -> [SpanEnd]
  {
    let (open, last) = try openSpans(from: sequence)
    guard !open.isEmpty else { return [] }
    var ended: [SpanEnd] = []
    for (_, start) in open {
      let end = SpanEnd.unfinished(start, at: time ?? last ?? start.startTimeNanoseconds)
      if self.end(end) != nil { ended.append(end) }
    }
    try flush()
    return ended
  }

  /// Drops every record at or below `sequence`, as ``dropThrough(_:)``, after carrying the
  /// start of every span still open among them past the drop (appended again, made durable
  /// first), so that a span outliving the batches the forwarder sends is still ended, once,
  /// after a crash. An end is never carried: once sent, it is done.
  ///
  /// Reads the records up to `sequence` (the batch just sent), then past it only as far as
  /// it takes to find an end, or a copy carried earlier, of each start found open there: a
  /// drop costs what was sent, not the spool's size, unless a span is still open.
  ///
  /// - Throws: As ``dropThrough(_:)``, and the read's errors (nothing is dropped then).
  public func dropEndedThrough(_ sequence: UInt64) throws(StoreError) {
    let carried = try startsToCarry(through: sequence)
    if !carried.isEmpty {
      for start in carried {
        guard self.start(start) != nil else {
          throw StoreError(
            .other, "a span's start could not be carried past the drop; nothing dropped",
            path: directory)
        }
      }
      try currentJournal()?.sync()
    }
    try dropThrough(sequence)
  }

  /// The starts at or below `sequence` of the spans with no end in the spool and no copy of
  /// their start after `sequence` (one a drop interrupted by a crash carried already), in the
  /// order they were started.
  func startsToCarry(through sequence: UInt64) throws(StoreError) -> [SpanStart] {
    // Each open span's first start, by sequence: decoded only for the few left at the end.
    var open: [SpanKey: UInt64] = [:]
    try forEachEncodedRecord(through: sequence) { (recordSequence, bytes) throws(StoreError) in
      guard let header = SpanRecordFormat.header(of: bytes) else { return }
      let key = SpanKey(traceID: header.traceID, spanID: header.spanID)
      switch header.recordKind {
      case SpanRecordFormat.recordKindEnd: open[key] = nil
      case SpanRecordFormat.recordKindStart where open[key] == nil: open[key] = recordSequence
      default: break
      }
    }
    if !open.isEmpty, sequence < .max {
      try settle(&open, after: sequence)
    }
    var starts: [SpanStart] = []
    for recordSequence in open.values.sorted() {
      try forEachEncodedRecord(from: recordSequence, through: recordSequence) {
        (_, bytes) throws(StoreError) in
        if case .start(let start)? = try? SpanRecordFormat.decode(bytes) { starts.append(start) }
      }
    }
    return starts
  }

  /// Removes from `open` each span with a record after `sequence`, reading only until none is
  /// left.
  private func settle(_ open: inout [SpanKey: UInt64], after sequence: UInt64)
    throws(StoreError)
  {
    try forEachEncodedRecord(from: sequence + 1) { (_, bytes) throws(StoreError) in
      guard let header = SpanRecordFormat.header(of: bytes) else { return }
      // An end, or a start carried before: either way the span needs no carrying now.
      open[SpanKey(traceID: header.traceID, spanID: header.spanID)] = nil
      if open.isEmpty { throw Self.stopReading }
    }
  }
}

/// A span's identity in its trace.
struct SpanKey: Hashable {
  var traceID: TraceID
  var spanID: SpanID
}
