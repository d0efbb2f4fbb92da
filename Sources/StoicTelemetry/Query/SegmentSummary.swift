/// What one sealed segment of the log journal holds, in brief: enough for a query to tell that
/// no record in it can match, and skip the segment without reading it.
///
/// A summary is derived data, kept beside the spool (``SegmentSummaryStore``) and encoded by
/// ``SegmentSummaryFormat``. It covers the records the segment holds from ``first`` through
/// ``last``; a query uses it only for a sealed segment whose range is exactly that, and only
/// to skip: a segment it does not skip is read, and every record there is checked against the
/// query itself.
public struct SegmentSummary: Sendable, Hashable {
  /// The segment's first sequence (its name).
  public var first: UInt64
  /// The last sequence the segment may hold: the next segment's first, less one.
  public var last: UInt64
  /// The records read from the segment (decoded or not).
  public var records: UInt64 = 0
  /// The earliest time of a record (nanoseconds since 1970), `Int64.max` when there is none.
  public var earliest = Int64.max
  /// The latest time of a record, `Int64.min` when there is none.
  public var latest = Int64.min
  /// Bit `n` set: a record of the level whose raw value is `n` is in the segment (a level
  /// byte above 7, which no build writes, sets bit 7).
  public var levels: UInt8 = 0
  /// The labels of the segment's records, sorted; `nil` when they were too many or too long
  /// to keep (``maximumLabels``, ``maximumLabelBytes``), or a record's label could not be
  /// read: then any label may be there.
  public var labels: [String]? = []

  /// The most labels a summary keeps: 256.
  public static let maximumLabels = 256
  /// The most bytes of labels a summary keeps: 16 KiB.
  public static let maximumLabelBytes = 16 << 10

  /// An empty summary of the segment holding `first...last`.
  public init(first: UInt64, last: UInt64) {
    self.first = first
    self.last = last
  }

  /// Whether the segment may hold a record of `level` or above.
  public func mayHold(levelAtLeast level: LogLevel) -> Bool {
    levels >> level.rawValue != 0
  }

  /// Whether the segment may hold a record timed in `range` (nanoseconds, half-open).
  public func mayHold(timesIn range: Range<Int64>) -> Bool {
    records > 0 && earliest < range.upperBound && latest >= range.lowerBound
  }

  /// Whether the segment may hold a record labelled `label`.
  public func mayHold(label: String) -> Bool {
    guard let labels else { return true }
    return labels.contains(label)
  }
}

extension SegmentSummary {
  /// Collects a summary while a segment is read, in bounded memory.
  struct Builder {
    var summary: SegmentSummary
    var labelSet: Set<String> = []
    var labelBytes = 0
    var labelsComplete = true

    init(first: UInt64, last: UInt64) {
      summary = SegmentSummary(first: first, last: last)
    }

    /// Counts one record from its encoded bytes.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
      summary.records += 1
      guard let header = LogRecordFormat.header(of: bytes) else {
        // No level or time to keep: nothing may be ruled out.
        summary.levels = 0xFF
        summary.earliest = .min
        summary.latest = .max
        labelsComplete = false
        return
      }
      summary.levels |= 1 << min(header.levelRawValue, 7)
      summary.earliest = min(summary.earliest, header.timeNanoseconds)
      summary.latest = max(summary.latest, header.timeNanoseconds)
      guard labelsComplete else { return }
      guard let label = LogRecordFormat.label(of: bytes) else {
        labelsComplete = false
        return
      }
      guard !labelSet.contains(label) else { return }
      labelBytes += label.utf8.count
      guard labelSet.count < maximumLabels, labelBytes <= maximumLabelBytes else {
        labelsComplete = false
        labelSet = []
        return
      }
      labelSet.insert(label)
    }

    /// The summary of what was added.
    var finished: SegmentSummary {
      var done = summary
      done.labels = labelsComplete ? labelSet.sorted() : nil
      return done
    }
  }
}
