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
