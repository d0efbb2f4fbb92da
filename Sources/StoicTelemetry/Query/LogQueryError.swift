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
