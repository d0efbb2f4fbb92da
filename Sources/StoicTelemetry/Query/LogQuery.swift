/// A search of the log spool: the filters a record must pass, all of them, and how many
/// records to return at most.
///
/// ```swift
/// var query = LogQuery(minimumLevel: .error, label: "payments")
/// query.since = try LogQueryTime.parse("1h", now: LogQueryTime.now)
/// query.conditions = [try LogMetadataCondition(parsing: "http.status=500")]
/// let statistics = try query.run(on: journal, summaries: store) { record in
///   print(record.message)
///   return true
/// }
/// ```
///
/// Records are returned oldest first (by sequence). Only records this build decodes can
/// match: a record a newer build wrote is counted (``LogQueryStatistics/unreadable``), never
/// returned.
public struct LogQuery: Sendable, Hashable {
  /// Only records of this level or above (`nil`: every level).
  public var minimumLevel: LogLevel?
  /// Only records logged at this time or later, in nanoseconds since 1970 (`nil`: no bound).
  public var since: Int64?
  /// Only records logged before this time (exclusive), in nanoseconds since 1970 (`nil`: no
  /// bound).
  public var until: Int64?
  /// Only records with exactly this label (`nil`: every label).
  public var label: String?
  /// Only records whose metadata meets every one of these conditions.
  public var conditions: [LogMetadataCondition]
  /// Only records whose message contains this text (byte for byte, case-sensitive; `nil`:
  /// every message).
  public var text: String?
  /// At most this many records (`nil`: no limit).
  public var limit: Int?

  /// A query; every parameter is the property of the same name, and the defaults match every
  /// record.
  public init(
    minimumLevel: LogLevel? = nil, since: Int64? = nil, until: Int64? = nil,
    label: String? = nil, conditions: [LogMetadataCondition] = [], text: String? = nil,
    limit: Int? = nil
  ) {
    self.minimumLevel = minimumLevel
    self.since = since
    self.until = until
    self.label = label
    self.conditions = conditions
    self.text = text
    self.limit = limit
  }

  /// Whether `record` passes every filter (the limit aside).
  public func matches(_ record: LogRecord) -> Bool {
    matches(record, needle: text.map { Array($0.utf8) })
  }

  /// ``matches(_:)`` with ``text``'s UTF-8 given (made once per run, not once per record).
  func matches(_ record: LogRecord, needle: [UInt8]?) -> Bool {
    matches(level: record.level.rawValue, time: record.timeNanoseconds)
      && (label.map { $0 == record.label } ?? true)
      && (needle.map { Self.contains(record.message, $0) } ?? true)
      && conditions.allSatisfy { $0.matches(record.metadata) }
  }

  /// Whether a record of this level byte and time passes the level and time filters: what a
  /// record's header (``LogRecordFormat/header(of:)``) tells before it is decoded.
  public func matches(level: UInt8, time: Int64) -> Bool {
    if let minimumLevel, level < minimumLevel.rawValue { return false }
    if let since, time < since { return false }
    if let until, time >= until { return false }
    return true
  }

  /// Whether a segment with this summary may hold a record that matches: `false` only when
  /// the summary rules every record out (no record, none at the level, none in the time
  /// range, not the label).
  public func mayMatch(_ summary: SegmentSummary) -> Bool {
    guard summary.records > 0 else { return false }
    if let minimumLevel, !summary.mayHold(levelAtLeast: minimumLevel) { return false }
    if let since, summary.latest < since { return false }
    if let until, summary.earliest >= until { return false }
    if let label, !summary.mayHold(label: label) { return false }
    return true
  }

  /// Whether the UTF-8 of `haystack` contains `needle`.
  static func contains(_ haystack: String, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    var haystack = haystack
    return haystack.withUTF8 { bytes in
      guard bytes.count >= needle.count, let first = needle.first else { return false }
      var start = 0
      let lastStart = bytes.count - needle.count
      while start <= lastStart {
        if bytes[start] == first {
          var index = 1
          while index < needle.count, bytes[start + index] == needle[index] { index += 1 }
          if index == needle.count { return true }
        }
        start += 1
      }
      return false
    }
  }
}

/// A query filter written as text that does not parse: what the command-line tool reports
/// (with its usage) for a bad `--level`, `--since`, `--until` or `--where`.
public enum LogQueryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A level that is not one of swift-log's lower-case names.
  case unknownLevel(String)
  /// A time that is neither RFC 3339 (`2026-12-01T10:00:00Z`, `2026-12-01T11:00:00.5+01:00`,
  /// `2026-12-01`) nor relative (`90s`, `30m`, `2h`, `1d`, `1w`).
  case malformedTime(String)
  /// A time written right that lies outside the nanoseconds since 1970 an `Int64` holds
  /// (1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z): `3000-01-01`,
  /// `99999999d`.
  case timeOutOfRange(String)
  /// A metadata condition that is not `key=value` with a non-empty key.
  case malformedCondition(String)
  /// A range whose start (`since`) is not before its end (`until`).
  case emptyTimeRange(since: Int64, until: Int64)

  /// One sentence naming what is wrong.
  public var description: String {
    switch self {
    case .unknownLevel(let text):
      let known = LogLevel.allCases.map(\.description).joined(separator: ", ")
      return "unknown level '\(text)' (known: \(known))"
    case .malformedTime(let text):
      return "'\(text)' is not a time: give RFC 3339 (2026-12-01T10:00:00Z, "
        + "2026-12-01T11:00:00.5+01:00, 2026-12-01) or a time ago (90s, 30m, 2h, 1d, 1w)"
    case .timeOutOfRange(let text):
      return "'\(text)' is out of range: times from 1677-09-21T00:12:43.145224192Z to "
        + "2262-04-11T23:47:16.854775807Z (dates alone 1677-09-22 to 2262-04-11) can be given"
    case .malformedCondition(let text):
      return "'\(text)' is not a metadata condition: give key=value (nested keys with dots: "
        + "http.status=500)"
    case .emptyTimeRange(let since, let until):
      return "the time range is empty: since (\(since) ns) is not before until (\(until) ns)"
    }
  }
}

/// What one run of a ``LogQuery`` went over: how much it read, how much it skipped.
public struct LogQueryStatistics: Sendable, Hashable {
  /// Segments holding records in the range read.
  public var segments = 0
  /// Of those, segments skipped whole because their summary rules every record out.
  public var segmentsSkipped = 0
  /// Valid summaries found (a skipped segment's included).
  public var summariesUsed = 0
  /// Summary files found that did not check, or covered another range: not used.
  public var summariesInvalid = 0
  /// Summaries written (built while reading a sealed segment whole).
  public var summariesWritten = 0
  /// Records read from the segments not skipped.
  public var recordsRead = 0
  /// Records decoded (those that passed the level and time filters).
  public var recordsDecoded = 0
  /// Records that passed the level and time filters but could not be decoded (a newer
  /// build's, or damaged): never returned.
  public var unreadable = 0
  /// Records returned.
  public var matched = 0
  /// Segments a read refused as damaged (the query went on with the next segment).
  public var damagedSegments = 0
  /// What the first damaged segment's read said, if any.
  public var firstDamage: String?

  /// Nothing read yet.
  public init() {}

  /// The fraction of segments skipped (0 when there were none).
  public var skippedFraction: Double {
    segments == 0 ? 0 : Double(segmentsSkipped) / Double(segments)
  }
}
