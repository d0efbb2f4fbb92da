@_spi(Formats) public import StoicStore

/// A search of the span spool: the filters a span must pass, all of them, and how many spans
/// to return at most.
///
/// ```swift
/// var query = SpanQuery(status: .error)
/// query.minimumDuration = 250_000_000  // 250 ms
/// let statistics = try query.run(on: journal) { span in
///   print(span.start.name, span.durationNanoseconds ?? 0)
///   return true
/// }
/// ```
///
/// A span is in the spool as its start and, once it ended, its end (which carries the whole
/// span). The query returns each span once: the ended ones in the order they ended, then those
/// whose start has no end in the spool (``QueriedSpan/open(_:)``: still running, or cut short
/// by a crash the spool has not been opened since; the next open ends them as unfinished).
/// Only records this build decodes can match: one a newer build wrote is counted
/// (``SpanQueryStatistics/unreadable``), never returned.
public struct SpanQuery: Sendable, Hashable {
  /// Only spans whose trace id, in lower-case hex, starts with this (`nil`: every trace; the
  /// whole 32 digits name one trace).
  public var traceIDPrefix: String?
  /// Only spans with exactly this name (`nil`: every name).
  public var name: String?
  /// Only spans with this status (`nil`: every status).
  public var status: StatusFilter?
  /// Only spans that took at least this long, in nanoseconds (`nil`: no bound; an open span
  /// has no duration and never passes a bound).
  public var minimumDuration: Int64?
  /// Only spans that took at most this long, in nanoseconds (`nil`: no bound).
  public var maximumDuration: Int64?
  /// Only spans started at this time or later, in nanoseconds since 1970 (`nil`: no bound).
  public var since: Int64?
  /// Only spans started before this time (exclusive), in nanoseconds since 1970 (`nil`: no
  /// bound).
  public var until: Int64?
  /// At most this many spans (`nil`: no limit).
  public var limit: Int?

  /// A query; every parameter is the property of the same name, and the defaults match every
  /// span.
  public init(
    traceIDPrefix: String? = nil, name: String? = nil, status: StatusFilter? = nil,
    minimumDuration: Int64? = nil, maximumDuration: Int64? = nil, since: Int64? = nil,
    until: Int64? = nil, limit: Int? = nil
  ) {
    self.traceIDPrefix = traceIDPrefix
    self.name = name
    self.status = status
    self.minimumDuration = minimumDuration
    self.maximumDuration = maximumDuration
    self.since = since
    self.until = until
    self.limit = limit
  }

  /// The status a span must have.
  public enum StatusFilter: String, Sendable, Hashable, CaseIterable {
    /// Ended with status unset (what most spans end with).
    case unset
    /// Ended with status ok.
    case ok
    /// Ended with status error: those the app marked so, and those ended as unfinished.
    case error
    /// Ended by Stoic as unfinished (``SpanEnd/isUnfinished``): the process ended first.
    case unfinished
    /// Started, with no end in the spool.
    case open
  }

  /// Whether `span` passes every filter (the limit aside).
  public func matches(_ span: QueriedSpan) -> Bool {
    let start = span.start
    if let traceIDPrefix, !start.traceID.description.hasPrefix(traceIDPrefix) { return false }
    if let name, start.name != name { return false }
    if let since, start.startTimeNanoseconds < since { return false }
    if let until, start.startTimeNanoseconds >= until { return false }
    if minimumDuration != nil || maximumDuration != nil {
      guard let duration = span.durationNanoseconds else { return false }
      if let minimumDuration, duration < minimumDuration { return false }
      if let maximumDuration, duration > maximumDuration { return false }
    }
    guard let status else { return true }
    switch (status, span) {
    case (.open, .open): return true
    case (.open, .ended), (_, .open): return false
    case (.unfinished, .ended(let end)): return end.isUnfinished
    case (.unset, .ended(let end)): return end.status.code == .unset
    case (.ok, .ended(let end)): return end.status.code == .ok
    case (.error, .ended(let end)): return end.status.code == .error
    }
  }

  /// Reads `journal` (a span spool's) from its first record to its last, and calls `body` with
  /// every span that matches, the ended ones as their ends are read, then the open ones in
  /// the order they started; `body` returning `false` ends the query. Memory holds the
  /// starts not yet ended, not the journal.
  ///
  /// - Throws: The journal's read errors.
  @discardableResult
  public func run(on journal: Journal, _ body: (QueriedSpan) -> Bool) throws(StoreError)
    -> SpanQueryStatistics
  {
    var statistics = SpanQueryStatistics()
    var open: [SpanID: (sequence: UInt64, start: SpanStart)] = [:]
    var going = true
    func offer(_ span: QueriedSpan) {
      guard going, matches(span) else { return }
      statistics.matched += 1
      going = body(span) && statistics.matched < limit ?? Int.max
    }
    if limit == 0 { return statistics }
    try LogQuery.read(journal, from: journal.lowWaterMark + 1, through: journal.lastSequence) {
      sequence, bytes in
      statistics.recordsRead += 1
      do throws(LogRecordDecodingError) {
        switch try SpanRecordFormat.decode(bytes) {
        case .start(let start):
          open[start.spanID] = (sequence, start)
        case .end(let end):
          open[end.start.spanID] = nil
          statistics.ended += 1
          offer(.ended(end))
        }
      } catch {
        statistics.unreadable += 1
      }
      return going
    }
    statistics.open = open.count
    for (_, start) in open.values.sorted(by: { $0.sequence < $1.sequence }) {
      offer(.open(start))
    }
    return statistics
  }

  /// The newest `count` spans that ended in `journal` (all of them when fewer), oldest first:
  /// read from the end backwards in growing windows, so the cost follows the spans returned,
  /// not the journal's size.
  ///
  /// - Throws: The journal's read errors.
  public static func newestEnded(_ count: Int, in journal: Journal) throws(StoreError)
    -> [SpanEnd]
  {
    let last = journal.lastSequence
    let floor = journal.lowWaterMark + 1
    guard count > 0, last >= floor else { return [] }
    var window = UInt64(count) * 2
    while true {
      let first = last - floor + 1 > window ? last - window + 1 : floor
      var ends: [SpanEnd] = []
      try forEachEnd(in: journal, from: first, through: last) { ends.append($0) }
      if ends.count >= count || first == floor { return Array(ends.suffix(count)) }
      window = window.multipliedReportingOverflow(by: 4).overflow ? UInt64.max : window * 4
    }
  }

  /// Calls `body` with every span end in `journal` from `first` through `last`, in order
  /// (what `stoic tail -f` prints as it reads); starts and records this build cannot decode
  /// are passed over.
  ///
  /// - Throws: The journal's read errors.
  public static func forEachEnd(
    in journal: Journal, from first: UInt64, through last: UInt64, _ body: (SpanEnd) -> Void
  ) throws(StoreError) {
    guard first <= last else { return }
    try LogQuery.read(journal, from: first, through: last) { _, bytes in
      if case .end(let end)? = try? SpanRecordFormat.decode(bytes) { body(end) }
      return true
    }
  }
}

/// A span a ``SpanQuery`` found: ended, or started with no end in the spool.
public enum QueriedSpan: Sendable, Hashable {
  /// A span that ended (or that Stoic ended as unfinished): the whole span.
  case ended(SpanEnd)
  /// A span whose start is in the spool and whose end is not.
  case open(SpanStart)

  /// The span's start.
  public var start: SpanStart {
    switch self {
    case .ended(let end): end.start
    case .open(let start): start
    }
  }

  /// The span's end, if it ended.
  public var end: SpanEnd? {
    if case .ended(let end) = self { return end }
    return nil
  }

  /// How long the span took, in nanoseconds (`nil` for an open span).
  public var durationNanoseconds: Int64? {
    guard let end else { return nil }
    let (duration, overflow) = end.endTimeNanoseconds.subtractingReportingOverflow(
      end.start.startTimeNanoseconds)
    return overflow ? nil : max(duration, 0)
  }
}

/// What a ``SpanQuery`` read and found.
public struct SpanQueryStatistics: Sendable, Hashable {
  /// The records read.
  public var recordsRead = 0
  /// The spans that ended among them.
  public var ended = 0
  /// The starts with no end in the spool.
  public var open = 0
  /// The records this build could not decode (a newer build's, or damaged), not returned.
  public var unreadable = 0
  /// The spans passed to the caller.
  public var matched = 0

  /// No spans read yet.
  public init() {}
}
