public import StoicStore

extension LogQuery {
  /// Runs the query over `journal` (a log spool's journal), calling `body` with each record
  /// that matches, oldest first, in bounded memory (the journal's read window or two
  /// compressed blocks, one summary's labels).
  ///
  /// Segment by segment:
  ///
  /// - A sealed segment with a valid summary that rules every record out
  ///   (``mayMatch(_:)``) is skipped without being opened.
  /// - Any other segment is read: each record's level and time are checked from its header,
  ///   and only a record that passes is decoded and checked against the other filters. A
  ///   sealed segment without a valid summary gets one built while it is read, written to
  ///   `summaries` when the read went over it whole. A summary is never used for the active
  ///   segment, nor for one whose seal is pending.
  /// - A segment the journal refuses as damaged is counted
  ///   (``LogQueryStatistics/damagedSegments``) and the query goes on with the next.
  ///
  /// Sees the records appended before the call.
  ///
  /// - Parameters:
  ///   - journal: The journal of a log spool (``LogSpool``'s, or one opened on its directory).
  ///   - summaries: Where segment summaries are kept, or `nil` to read every segment.
  ///   - progress: Called after each segment with the statistics so far.
  ///   - body: Called with each matching record; returning `false` ends the query.
  /// - Returns: What the query read and skipped.
  /// - Throws: The journal's errors (`StoreError/Code/closed`, the file system's), other
  ///   than damage to a segment.
  @discardableResult
  public func run(
    on journal: Journal, summaries: SegmentSummaryStore? = nil,
    progress: ((LogQueryStatistics) -> Void)? = nil, _ body: (LogRecord) -> Bool
  ) throws(StoreError) -> LogQueryStatistics {
    var statistics = LogQueryStatistics()
    if let limit, limit <= 0 { return statistics }
    let segments = try journal.segments()
    let lowWaterMark = journal.lowWaterMark
    let lastSequence = journal.lastSequence
    let needle = text.map { Array($0.utf8) }
    var stopped = false
    for (index, segment) in segments.enumerated() where !stopped {
      let next = index + 1 < segments.count ? segments[index + 1].first : lastSequence &+ 1
      guard next > 0 else { continue }
      let end = min(next - 1, lastSequence)
      guard end >= max(segment.first, lowWaterMark + 1) else { continue }
      statistics.segments += 1
      var builder: SegmentSummary.Builder?
      if segment.isSealed, let summaries {
        switch summaries.lookup(first: segment.first, last: next - 1) {
        case .valid(let summary):
          statistics.summariesUsed += 1
          if !mayMatch(summary) {
            statistics.segmentsSkipped += 1
            progress?(statistics)
            continue
          }
        case .missing:
          builder = SegmentSummary.Builder(first: segment.first, last: next - 1)
        case .invalid:
          statistics.summariesInvalid += 1
          builder = SegmentSummary.Builder(first: segment.first, last: next - 1)
        }
      }
      do throws(StoreError) {
        try Self.read(journal, from: segment.first, through: end) { (sequence, bytes) -> Bool in
          builder?.add(bytes)
          statistics.recordsRead += 1
          // After the last record wanted, the segment is read on only to finish its summary.
          guard !stopped else { return true }
          guard let header = LogRecordFormat.header(of: bytes) else {
            statistics.unreadable += 1
            return true
          }
          guard matches(level: header.levelRawValue, time: header.timeNanoseconds) else {
            return true
          }
          let record: LogRecord
          do throws(LogRecordDecodingError) {
            record = try LogRecordFormat.decode(bytes, sequence: sequence)
          } catch {
            statistics.unreadable += 1
            return true
          }
          statistics.recordsDecoded += 1
          guard matches(record, needle: needle) else { return true }
          statistics.matched += 1
          if !body(record) || statistics.matched >= (limit ?? .max) { stopped = true }
          return !stopped || builder != nil
        }
      } catch  where error.code == .corrupt {
        statistics.damagedSegments += 1
        statistics.firstDamage = statistics.firstDamage ?? error.message
        progress?(statistics)
        continue
      }
      if let summaries, let builder, summaries.writable {
        if (try? summaries.save(builder.finished)) != nil { statistics.summariesWritten += 1 }
      }
      progress?(statistics)
    }
    if let summaries, summaries.writable, let oldest = segments.first?.first {
      summaries.prune(before: oldest)
    }
    return statistics
  }

  /// Runs the query over the telemetry spool at `root` when it is not open in this process:
  /// opens its log journal (`<root>/logs`) with `fileSystem` (reading only: no compression,
  /// no background work), runs ``run(on:summaries:progress:_:)`` and closes it.
  ///
  /// The journal is opened by the library's own open: on the real disk it takes the
  /// journal's lock (refused with `StoreError/Code/locked` while another process owns the
  /// spool) and recovers it (a torn tail is cut). The `stoic` tool passes a copy-on-write
  /// view instead, which reads a spool another process holds without the lock and without
  /// writing.
  ///
  /// - Parameters:
  ///   - root: The telemetry spool's directory.
  ///   - fileSystem: The file system the spool is read through.
  ///   - maxRecordSize: The largest record the spool's writer allows
  ///     (``LogSpoolOptions/maxRecordSize``).
  ///   - summaries: Where segment summaries are kept (usually
  ///     ``SegmentSummaryStore/directory(ofSpool:)`` on the real disk), or `nil`.
  ///   - progress: Called now and then with what the query has read so far.
  ///   - body: Called with each matching record, oldest first; returning `false` ends the query.
  /// - Throws: As `Journal/open(directory:fileSystem:options:events:)` and
  ///   ``run(on:summaries:progress:_:)``.
  @discardableResult
  public func run(
    spoolAt root: String, fileSystem: any FileSystem = PosixFileSystem(),
    maxRecordSize: Int = LogSpoolOptions().maxRecordSize, summaries: SegmentSummaryStore?,
    progress: ((LogQueryStatistics) -> Void)? = nil, _ body: (LogRecord) -> Bool
  ) throws(StoreError) -> LogQueryStatistics {
    let journal = try Journal.open(
      directory: StorePath.join(root, "logs"), fileSystem: fileSystem,
      options: Self.readingOptions(maxRecordSize: maxRecordSize))
    defer { try? journal.close() }
    return try run(on: journal, summaries: summaries, progress: progress, body)
  }

  /// The options a reader opens a log journal with: nothing compressed, sealed or synced in
  /// the background, plain writes rather than a mapping.
  public static func readingOptions(maxRecordSize: Int = LogSpoolOptions().maxRecordSize)
    -> JournalOptions
  {
    JournalOptions(
      maxRecordSize: maxRecordSize, compressSealedSegments: false,
      backgroundMaintenance: false, mappedAppends: false)
  }

  /// Reads `journal`'s records `first...last` in order; `body` returning `false` ends the
  /// read.
  static func read(
    _ journal: Journal, from first: UInt64, through last: UInt64,
    _ body: (UInt64, UnsafeRawBufferPointer) -> Bool
  ) throws(StoreError) {
    do throws(StoreError) {
      try journal.forEachRecordBorrowing(from: first) { (sequence, bytes) throws(StoreError) in
        guard sequence <= last, body(sequence, bytes) else { throw LogSpool.stopReading }
      }
    } catch  where error.cause is LogSpool.ReadStopped {
      // Stopped on purpose.
    }
  }
}

extension LogSpool {
  /// Runs `query` over the spool's records (see ``LogQuery/run(on:summaries:progress:_:)``).
  ///
  /// - Throws: `StoreError/Code/closed` after ``close()``; as
  ///   ``LogQuery/run(on:summaries:progress:_:)``.
  @discardableResult
  public func query(
    _ query: LogQuery, summaries: SegmentSummaryStore? = nil,
    progress: ((LogQueryStatistics) -> Void)? = nil, _ body: (LogRecord) -> Bool
  ) throws(StoreError) -> LogQueryStatistics {
    guard let journal = currentJournal() else {
      throw StoreError(.closed, "the log spool is closed", path: directory)
    }
    return try query.run(on: journal, summaries: summaries, progress: progress, body)
  }
}

extension TelemetrySpool {
  /// Where the spool keeps its log segments' summaries: `<root>/summaries`, on the real disk.
  public var segmentSummaries: SegmentSummaryStore {
    SegmentSummaryStore(
      directory: SegmentSummaryStore.directory(ofSpool: directory), fileSystem: logs.fileSystem)
  }

  /// Runs `query` over the spool's log records, with its segment summaries (see
  /// ``LogQuery/run(on:summaries:progress:_:)``).
  ///
  /// - Throws: As ``RecordSpool/query(_:summaries:progress:_:)``.
  @discardableResult
  public func query(
    _ query: LogQuery, progress: ((LogQueryStatistics) -> Void)? = nil,
    _ body: (LogRecord) -> Bool
  ) throws(StoreError) -> LogQueryStatistics {
    try logs.query(query, summaries: segmentSummaries, progress: progress, body)
  }
}
