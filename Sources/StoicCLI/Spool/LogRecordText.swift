import StoicStore
import StoicTelemetry

/// How `query` and `tail` print a log record: one line of text, or one JSON object per line.
enum LogRecordText {
  /// `TIME LEVEL LABEL: MESSAGE key=value …`, the time with nanoseconds in local time (UTC
  /// with `utc`), the level painted on a terminal, metadata keys sorted; the record's text
  /// escaped (`TerminalText/escaped(_:)`), so a record is always one line and a message of
  /// several lines shows its line breaks as `\n`.
  static func line(_ record: LogRecord, style: Style, utc: Bool) -> String {
    var text = time(record.timeNanoseconds, utc: utc) + " "
    let level = record.level.description
    text += style(level, paint(record.level)) + String(repeating: " ", count: 8 - level.count)
    text += style(TerminalText.escaped(record.label), .cyan) + ": "
    text += TerminalText.escaped(record.message)
    for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) {
      text += " " + style(TerminalText.escaped(key), .dim) + "="
      text += TerminalText.escaped(value.description)
    }
    return text
  }

  /// The line for an entry this build cannot decode.
  static func line(_ unreadable: UnreadableLogRecord, style: Style) -> String {
    style(
      "#\(unreadable.sequence) unreadable record (\(unreadable.bytes.count) bytes): "
        + TerminalText.escaped("\(unreadable.reason)"), .yellow)
  }

  /// `{"spool_sequence", "time", "level", "label", "message", "metadata", "source", "file",
  /// "function", "line"}`: the record's sequence in the spool (named so that it is not taken
  /// for a `seq` of the app's own metadata), the time in RFC 3339 UTC with nanoseconds, the
  /// level by swift-log's lower-case name, metadata as nested objects and arrays of strings.
  static func json(_ record: LogRecord) -> JSONValue {
    .object([
      ("spool_sequence", .unsigned(record.sequence)),
      ("time", .string(time(record.timeNanoseconds, utc: true))),
      ("level", .string(record.level.description)),
      ("label", .string(record.label)),
      ("message", .string(record.message)),
      ("metadata", json(record.metadata)),
      ("source", .string(record.source)),
      ("file", .string(record.file)),
      ("function", .string(record.function)),
      ("line", .unsigned(UInt64(record.line))),
    ])
  }

  /// `{"spool_sequence", "unreadable": true, "bytes", "reason"}`.
  static func json(_ unreadable: UnreadableLogRecord) -> JSONValue {
    .object([
      ("spool_sequence", .unsigned(unreadable.sequence)),
      ("unreadable", .bool(true)),
      ("bytes", .int(Int64(unreadable.bytes.count))),
      ("reason", .string("\(unreadable.reason)")),
    ])
  }

  static func json(_ metadata: LogMetadata) -> JSONValue {
    .object(metadata.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
  }

  static func json(_ value: LogMetadataValue) -> JSONValue {
    switch value {
    case .string(let text), .stringConvertible(let text): .string(text)
    case .dictionary(let entries): json(entries)
    case .array(let values): .array(values.map(json))
    }
  }

  /// RFC 3339 with nine digits of fraction.
  static func time(_ nanoseconds: Int64, utc: Bool) -> String {
    let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    let floor = fraction < 0 ? seconds - 1 : seconds
    let rest = fraction < 0 ? fraction + 1_000_000_000 : fraction
    return TimeFormat.rfc3339(seconds: floor, nanoseconds: rest, digits: 9, utc: utc)
  }

  static func paint(_ level: LogLevel) -> Style.Paint {
    switch level {
    case .trace, .debug: .dim
    case .info, .notice: .green
    case .warning: .yellow
    case .error, .critical: .red
    }
  }
}
