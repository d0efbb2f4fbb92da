public import StoicForwarding
public import StoicStore

/// What a collector has stored, in its own journal: every accepted request with the answer it
/// got, and every idempotency key it has answered.
///
/// Stripe's rule for idempotency keys: the first request with a key is stored, with its
/// response, durably, before it is answered; a later request with the same key gets the stored
/// response and stores nothing. A request that arrives while another with its key is being
/// stored waits for it. A key reused with a different body is a conflict (answered 422), not a
/// replay. The index of keys is rebuilt from the journal at open, so a restarted collector
/// still knows every key it answered.
///
/// Open it on a directory a stopped collector left (``open(directory:)``) to
/// list what it holds; while a collector runs, use its ``Collector/archive``, or read the
/// directory through a file system that takes no lock and writes nothing (the `stoic` tool's
/// copy-on-write overlay) with ``open(directory:fileSystem:options:)``.
public final class CollectorArchive: Sendable {
  /// What the index knows of one answered key.
  struct Answer: Sendable {
    var signal: OTLPSignal
    var status: Int
    var rejected: Int64
    var message: String
    var bodyChecksum: UInt32
    var producers: [String]
  }

  /// The outcome of ``store(_:key:body:recordCount:producers:)``.
  enum Outcome: Sendable {
    /// Stored now; answer with this.
    case stored(Answer)
    /// The key was stored before; answer with its stored response.
    case replayed(Answer)
    /// The key was stored before with a different request.
    case conflict
  }

  private struct State {
    var index: [String: Answer] = [:]
    var inFlight: Set<String> = []
    var stats = CollectorStats()
  }

  private let journal: Journal
  private let state: SleepingLock<State>

  private init(journal: Journal, state: State) {
    self.journal = journal
    self.state = SleepingLock(state)
  }

  /// The journal's record limit: the largest decoded body a collector may be configured to
  /// accept (512 MiB) and its entry's header. Fixed, whatever the configured limits, because a
  /// journal refuses a stored record above its limit: lowering it between runs would make the
  /// records already stored unreadable.
  public static let maxRecordBytes = (512 << 20) + (1 << 20)

  /// Opens (creating if needed) the journal in `directory` and rebuilds the index of keys and
  /// the counts from it.
  ///
  /// - Parameter directory: The collector's data directory.
  /// - Throws: The journal's `StoreError` (`StoreError/Code/locked` while a running
  ///   collector holds the directory).
  public static func open(directory: String) throws(StoreError) -> CollectorArchive {
    try open(
      directory: directory, fileSystem: PosixFileSystem(),
      options: JournalOptions(syncPolicy: .always, maxRecordSize: maxRecordBytes))
  }

  /// Opens the journal in `directory` through `fileSystem` with `options` and rebuilds the
  /// index of keys and the counts from it: the way to read a collector's store without
  /// taking it, through a file system whose lock is its own and whose writes stay in memory.
  ///
  /// - Parameters:
  ///   - directory: The collector's data directory.
  ///   - fileSystem: The file system to read (and, for a collector, write) it through.
  ///   - options: The journal's options; their `JournalOptions/maxRecordSize` must be at
  ///     least ``maxRecordBytes``, or a large stored batch is taken for damage.
  /// - Throws: The journal's `StoreError`.
  public static func open(
    directory: String, fileSystem: any FileSystem, options: JournalOptions
  ) throws(StoreError) -> CollectorArchive {
    let journal = try Journal.open(directory: directory, fileSystem: fileSystem, options: options)
    var state = State()
    do {
      try journal.forEachRecordBorrowing { (_, payload) throws(StoreError) in
        guard let entry = CollectorEntry.decode(payload, withBody: false) else {
          state.stats.unreadableEntries += 1
          return
        }
        switch entry {
        case .batch(let batch):
          Self.count(batch, in: &state.stats)
          if !batch.key.isEmpty { state.index[batch.key] = Self.answer(for: batch) }
        case .duplicate(_, let key):
          Self.countDuplicate(of: state.index[key], in: &state.stats)
        case .conflict:
          state.stats.keyConflicts += 1
        }
      }
    } catch {
      try? journal.close()
      throw error
    }
    return CollectorArchive(journal: journal, state: state)
  }

  /// Closes the journal (syncing it).
  public func close() throws(StoreError) {
    try journal.close()
  }

  /// The counts from the journal, plus whatever `update(_:)` added since open.
  public var stats: CollectorStats {
    state.withLock { $0.stats }
  }

  /// Changes the counts that are not the journal's (requests, rejections, faults).
  func update(_ change: (inout CollectorStats) -> Void) {
    state.withLockWakingWaiters { change(&$0.stats) }
  }

  /// Stores one decoded request under `key` (or without one), as the type's documentation
  /// says, and returns how to answer it.
  ///
  /// - Parameters:
  ///   - signal: Logs or metrics.
  ///   - key: The `Idempotency-Key`, if any.
  ///   - body: The request as protobuf, compressed as `bodyCompression` says.
  ///   - bodyCompression: How `body` is compressed.
  ///   - checksum: CRC32C of the request as uncompressed protobuf.
  ///   - recordCount: Its log records or data points.
  ///   - producers: Its producers and their record counts.
  /// - Throws: The journal's error; the key is then not stored and a retry may store it.
  func store(
    _ signal: OTLPSignal, key: String?, body: [UInt8],
    bodyCompression: CollectorBodyCompression = .none,
    checksum: UInt32? = nil, recordCount: Int, producers: [CollectorBatch.Producer]
  ) throws(StoreError) -> Outcome {
    let checksum = checksum ?? CRC32C.checksum(body)
    let batch = CollectorBatch(
      signal: signal, key: key ?? "", status: 200, rejected: 0, message: "",
      bodyChecksum: checksum, recordCount: recordCount, producers: producers, body: body,
      bodyCompression: bodyCompression)
    guard let key, !key.isEmpty else {
      try journal.append(CollectorEntry.batch(batch).encoded())
      state.withLockWakingWaiters { Self.count(batch, in: &$0.stats) }
      return .stored(Self.answer(for: batch))
    }
    // Claim the key, waiting while another request with it is being stored.
    let claim = state.wait { state -> Answer?? in
      if state.inFlight.contains(key) { return nil }
      if let answer = state.index[key] { return .some(answer) }
      state.inFlight.insert(key)
      return .some(nil)
    }
    let earlier = claim ?? nil
    if let earlier {
      guard earlier.bodyChecksum == checksum, earlier.signal == signal else {
        // Recorded like a replay, so the count survives a restart; losing the marker loses
        // only a count.
        _ = try? journal.append(CollectorEntry.conflict(signal: signal, key: key).encoded())
        state.withLockWakingWaiters { $0.stats.keyConflicts += 1 }
        return .conflict
      }
      // The replay is recorded so the count survives a restart; losing the marker loses
      // only a count, so a failure to write it does not fail the answer.
      _ = try? journal.append(CollectorEntry.duplicate(signal: signal, key: key).encoded())
      state.withLockWakingWaiters { Self.countDuplicate(of: earlier, in: &$0.stats) }
      return .replayed(earlier)
    }
    do {
      try journal.append(CollectorEntry.batch(batch).encoded())
    } catch {
      state.withLockWakingWaiters { _ = $0.inFlight.remove(key) }
      throw error
    }
    let answer = Self.answer(for: batch)
    state.withLockWakingWaiters { state in
      state.index[key] = answer
      state.inFlight.remove(key)
      Self.count(batch, in: &state.stats)
    }
    return .stored(answer)
  }

  // MARK: Listing

  /// Every entry of the journal in the order stored, without the batches' bodies: its
  /// sequence, its size in bytes, and the entry (`nil` for one that does not decode, which
  /// ``CollectorStats/unreadableEntries`` counts).
  ///
  /// - Throws: The journal's read errors.
  public func forEachEntry(
    _ body: (_ sequence: UInt64, _ bytes: Int, _ entry: CollectorEntry?) -> Void
  ) throws(StoreError) {
    try journal.forEachRecordBorrowing { (sequence, payload) throws(StoreError) in
      body(sequence, payload.count, CollectorEntry.decode(payload, withBody: false))
    }
  }

  /// Checks the body of every stored batch (``CollectorBatch/bodyProblem(limit:)``): hands
  /// the sequence and the problem of each one that fails, in the order stored.
  ///
  /// - Throws: The journal's read errors.
  public func checkBodies(
    limit: Int, _ body: (_ sequence: UInt64, _ problem: String) -> Void
  ) throws(StoreError) {
    try journal.forEachRecordBorrowing { (sequence, payload) throws(StoreError) in
      guard case .batch(let batch) = CollectorEntry.decode(payload, withBody: true),
        let problem = batch.bodyProblem(limit: limit)
      else { return }
      body(sequence, problem)
    }
  }

  /// Every stored batch, decoded, in the order stored.
  ///
  /// - Throws: The journal's read errors.
  func forEachBatch(_ body: (CollectorBatch) -> Void) throws(StoreError) {
    try journal.forEachRecordBorrowing { (_, payload) throws(StoreError) in
      if case .batch(let batch) = CollectorEntry.decode(payload, withBody: true) { body(batch) }
    }
  }

  /// Every log record stored, in the order stored, with its key, resource and scope.
  ///
  /// - Throws: The journal's read errors. (A stored body that does not decode is skipped;
  ///   it was decoded before it was stored, so that means damage the journal's CRC missed.)
  public func logRecords() throws(StoreError) -> [ReceivedLogRecord] {
    var records: [ReceivedLogRecord] = []
    try forEachLogRecord { records.append($0) }
    return records
  }

  /// Hands every log record stored to `body`, in the order stored, with its key, resource
  /// and scope, one stored batch in memory at a time (for a store of any size).
  ///
  /// - Throws: The journal's read errors. (A stored body that does not decode is skipped, as
  ///   in ``logRecords()``.)
  public func forEachLogRecord(_ body: (ReceivedLogRecord) -> Void) throws(StoreError) {
    try forEachBatch { batch in
      guard batch.signal == .logs,
        let protobuf = batch.protobuf(limit: Self.maxRecordBytes),
        let request = try? OTLP.ExportLogsServiceRequest(protobuf: protobuf)
      else { return }
      let key = batch.key.isEmpty ? nil : batch.key
      for resourceLogs in request.resourceLogs {
        for scopeLogs in resourceLogs.scopeLogs {
          for record in scopeLogs.logRecords {
            body(
              ReceivedLogRecord(
                key: key, resource: resourceLogs.resource, scope: scopeLogs.scope, record: record))
          }
        }
      }
    }
  }

  /// Every metric stored, in the order stored, with its key, resource and scope.
  ///
  /// - Throws: The journal's read errors.
  public func metrics() throws(StoreError) -> [ReceivedMetric] {
    var metrics: [ReceivedMetric] = []
    try forEachBatch { batch in
      guard batch.signal == .metrics,
        let body = batch.protobuf(limit: Self.maxRecordBytes),
        let request = try? OTLP.ExportMetricsServiceRequest(protobuf: body)
      else { return }
      let key = batch.key.isEmpty ? nil : batch.key
      for resourceMetrics in request.resourceMetrics {
        for scopeMetrics in resourceMetrics.scopeMetrics {
          for metric in scopeMetrics.metrics {
            metrics.append(
              ReceivedMetric(
                key: key, resource: resourceMetrics.resource, scope: scopeMetrics.scope,
                metric: metric))
          }
        }
      }
    }
    return metrics
  }

  /// Every span stored, in the order stored, with its key, resource and scope.
  ///
  /// - Throws: The journal's read errors.
  public func spans() throws(StoreError) -> [ReceivedSpan] {
    var spans: [ReceivedSpan] = []
    try forEachBatch { batch in
      guard batch.signal == .traces,
        let body = batch.protobuf(limit: Self.maxRecordBytes),
        let request = try? OTLP.ExportTraceServiceRequest(protobuf: body)
      else { return }
      let key = batch.key.isEmpty ? nil : batch.key
      for resourceSpans in request.resourceSpans {
        for scopeSpans in resourceSpans.scopeSpans {
          for span in scopeSpans.spans {
            spans.append(
              ReceivedSpan(
                key: key, resource: resourceSpans.resource, scope: scopeSpans.scope, span: span))
          }
        }
      }
    }
    return spans
  }

  // MARK: Counting

  private static func answer(for batch: CollectorBatch) -> Answer {
    Answer(
      signal: batch.signal, status: batch.status, rejected: batch.rejected,
      message: batch.message, bodyChecksum: batch.bodyChecksum,
      producers: batch.producers.map(\.name))
  }

  private static func count(_ batch: CollectorBatch, in stats: inout CollectorStats) {
    stats.batches += 1
    switch batch.signal {
    case .logs:
      stats.logBatches += 1
      stats.logRecords += batch.recordCount
    case .metrics:
      stats.metricBatches += 1
      stats.dataPoints += batch.recordCount
    case .traces:
      stats.traceBatches += 1
      stats.spans += batch.recordCount
    }
    for producer in batch.producers {
      stats.producers[producer.name, default: CollectorStats.Producer()].batches += 1
      switch batch.signal {
      case .logs:
        stats.producers[producer.name, default: CollectorStats.Producer()].logRecords +=
          producer.records
      case .metrics:
        stats.producers[producer.name, default: CollectorStats.Producer()].dataPoints +=
          producer.records
      case .traces:
        stats.producers[producer.name, default: CollectorStats.Producer()].spans +=
          producer.records
      }
    }
  }

  private static func countDuplicate(of answer: Answer?, in stats: inout CollectorStats) {
    stats.duplicatesSuppressed += 1
    for producer in answer?.producers ?? [] {
      stats.producers[producer, default: CollectorStats.Producer()].duplicatesSuppressed += 1
    }
  }
}

/// A span the collector holds, with where it came from.
public struct ReceivedSpan: Sendable, Hashable {
  /// The `Idempotency-Key` of the request that carried it (`nil` for none).
  public var key: String?
  /// The resource it was sent under.
  public var resource: OTLP.Resource?
  /// The instrumentation scope it was sent under.
  public var scope: OTLP.InstrumentationScope?
  /// The span.
  public var span: OTLP.Span
}

/// A log record the collector holds, with where it came from.
public struct ReceivedLogRecord: Sendable, Hashable {
  /// The `Idempotency-Key` of the request that carried it (`nil` for none).
  public var key: String?
  /// The resource it was sent under.
  public var resource: OTLP.Resource?
  /// The instrumentation scope it was sent under.
  public var scope: OTLP.InstrumentationScope?
  /// The record.
  public var record: OTLP.LogRecord
}

/// A metric the collector holds, with where it came from.
public struct ReceivedMetric: Sendable, Hashable {
  /// The `Idempotency-Key` of the request that carried it (`nil` for none).
  public var key: String?
  /// The resource it was sent under.
  public var resource: OTLP.Resource?
  /// The instrumentation scope it was sent under.
  public var scope: OTLP.InstrumentationScope?
  /// The metric and its points.
  public var metric: OTLP.Metric
}
