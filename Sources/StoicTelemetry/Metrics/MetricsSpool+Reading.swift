public import StoicStore

extension MetricsSpool {
  /// Calls `body` with every sample of the journal records whose sequence lies in
  /// `sequence...last` (after the low-water mark), in order, with its record's sequence: what a
  /// forwarder sends, then acknowledges with ``dropThrough(_:)``.
  ///
  /// Records of a later format version and damaged records are skipped, kept and counted in the
  /// summary (and reported with ``SpoolEvents/metricsSamplesUnreadable``). Reads in bounded
  /// memory; blocks on file reads.
  ///
  /// - Returns: What the read met.
  /// - Throws: The journal's errors; what `body` throws.
  @discardableResult
  public func forEachSample(
    from sequence: UInt64 = 0, through last: UInt64 = .max,
    _ body: (UInt64, MetricSample) throws(StoreError) -> Void
  ) throws(StoreError) -> MetricsReadSummary {
    try Self.readSamples(
      in: journal.withLock { $0 }, from: sequence, through: last, events: events, body)
  }

  /// Drops every journal record at or below `sequence` (the forwarder's acknowledgement),
  /// keeping each series' last sample at or below it in the journal's snapshot, so a rebuild
  /// after a restart of the machine still continues every series.
  ///
  /// Blocks on reading the dropped records and on syncs.
  ///
  /// - Throws: `StoreError.Code.invalidArgument` for a sequence above ``lastSequence``;
  ///   `StoreError.Code.corrupt` when the snapshot cannot be read (nothing is dropped then);
  ///   the journal's errors.
  public func dropThrough(_ sequence: UInt64) throws(StoreError) {
    try flushLock.withLock { (_) throws(StoreError) in
      let journal = try usableJournal()
      guard sequence > journal.lowWaterMark else { return }
      guard sequence <= journal.lastSequence else {
        throw StoreError(
          .invalidArgument,
          "cannot drop through \(sequence): the last sequence is \(journal.lastSequence)",
          path: directory)
      }
      var summary = MetricsReadSummary()
      let kept = try Self.lastSamples(
        in: journal, through: sequence, events: events, requireSnapshot: true,
        summary: &summary)
      try journal.writeSnapshot(
        covering: sequence, bytes: MetricSampleFormat.encode(kept.all))
    }
  }

  /// The sequence of the last record of samples (0 for none).
  public var lastSequence: UInt64 { journal.withLock { $0 }.lastSequence }

  /// Records at or below this sequence were dropped.
  public var lowWaterMark: UInt64 { journal.withLock { $0 }.lowWaterMark }

  // MARK: Internals

  /// A stop signal thrown through the journal's reader once past the last wanted record.
  private struct StopReading: Error {}

  /// Reads the samples of `journal`'s records in `sequence...last`.
  static func readSamples(
    in journal: Journal, from sequence: UInt64, through last: UInt64, events: EventSink,
    _ body: (UInt64, MetricSample) throws(StoreError) -> Void
  ) throws(StoreError) -> MetricsReadSummary {
    var summary = MetricsReadSummary()
    guard sequence <= last else { return summary }
    do {
      try journal.forEachRecordBorrowing(from: sequence) {
        (recordSequence, payload) throws(StoreError) in
        guard recordSequence <= last else {
          throw StoreError(.other, "read finished", cause: StopReading())
        }
        summary.records += 1
        summary.lastSequence = recordSequence
        switch MetricSampleFormat.decode(payload) {
        case .samples(let samples):
          for sample in samples {
            summary.samples += 1
            try body(recordSequence, sample)
          }
        case .newerVersion:
          summary.newerRecords += 1
        case .damaged:
          summary.damagedRecords += 1
        }
      }
    } catch  where error.cause is StopReading {
      // Past `last`: done.
    }
    report(summary, events: events)
    return summary
  }

  /// Every series' last sample in the snapshot and the records up to `last`.
  static func lastSamples(in journal: Journal, through last: UInt64, events: EventSink)
    throws(StoreError) -> MetricsLastSamples
  {
    var summary = MetricsReadSummary()
    return try lastSamples(
      in: journal, through: last, events: events, requireSnapshot: false, summary: &summary)
  }

  /// Every series' last sample in the snapshot and the records up to `last`; with
  /// `requireSnapshot`, an unreadable snapshot throws instead of counting as empty.
  static func lastSamples(
    in journal: Journal, through last: UInt64, events: EventSink, requireSnapshot: Bool,
    summary: inout MetricsReadSummary
  ) throws(StoreError) -> MetricsLastSamples {
    var state = MetricsLastSamples()
    if let snapshot = try journal.snapshot() {
      switch MetricSampleFormat.decode(snapshot.bytes) {
      case .samples(let samples):
        for sample in samples { state.take(sample) }
      case .newerVersion(let version):
        guard !requireSnapshot else {
          throw StoreError(
            .unsupported, "the samples' snapshot has format version \(version)",
            path: journal.directory)
        }
        summary.newerRecords += 1
      case .damaged(let reason):
        guard !requireSnapshot else {
          throw StoreError(
            .corrupt, "the samples' snapshot does not decode: \(reason)",
            path: journal.directory)
        }
        summary.damagedRecords += 1
      }
    }
    if summary.newerRecords + summary.damagedRecords > 0 { report(summary, events: events) }
    let records = try readSamples(in: journal, from: 0, through: last, events: events) {
      _, sample in state.take(sample)
    }
    summary.newerRecords += records.newerRecords
    summary.damagedRecords += records.damagedRecords
    return state
  }

  /// Reports records that were kept but not decoded.
  private static func report(_ summary: MetricsReadSummary, events: EventSink) {
    guard summary.newerRecords > 0 || summary.damagedRecords > 0 else { return }
    events.emit(
      SpoolEvents.metricsSamplesUnreadable,
      [("newer", "\(summary.newerRecords)"), ("damaged", "\(summary.damagedRecords)")])
  }
}

/// What a read of the metrics journal met (``MetricsSpool/forEachSample(from:through:_:)``).
public struct MetricsReadSummary: Sendable, Hashable {
  /// Samples handed to the caller.
  public var samples = 0
  /// Journal records read (one per flush, or more for a large one).
  public var records = 0
  /// Records of a later format version: kept in the journal, not decoded.
  public var newerRecords = 0
  /// Records this format cannot have written: kept in the journal, not decoded.
  public var damagedRecords = 0
  /// The sequence of the last record read, or 0.
  public var lastSequence: UInt64 = 0

  /// An empty summary.
  public init() {}
}

/// What ``MetricsSpool/open(directory:fileSystem:options:events:)`` found.
public struct MetricsRecovery: Sendable, Hashable {
  /// Why the live files were rebuilt from the journal's last synced samples (a restart of the
  /// machine, a first open, damage), or nil when those of this boot were adopted as they were.
  public var rebuiltReason: String?
  /// Why the live file could not be used at all (series then live in memory), or nil.
  public var liveFileError: String?
  /// How many series the spool continued.
  public var series = 0

  /// An empty report.
  public init() {}
}

/// The last sample of every series, as the metrics journal holds them: what a spool continues
/// from when its live file cannot be trusted, and the snapshot kept when older samples are
/// dropped.
struct MetricsLastSamples {
  private var samples: [MetricSeriesKey: MetricSample] = [:]
  /// The series in the order they first appeared, so a rebuild is deterministic.
  private var order: [MetricSeriesKey] = []

  /// Keeps `sample` as its series' last (a later sample replaces an earlier one).
  mutating func take(_ sample: MetricSample) {
    let key = MetricSeriesKey(sample)
    if samples.updateValue(sample, forKey: key) == nil { order.append(key) }
  }

  /// Every series' last sample, in first-appearance order.
  var all: [MetricSample] { order.compactMap { samples[$0] } }

  /// How many series.
  var count: Int { order.count }
}
