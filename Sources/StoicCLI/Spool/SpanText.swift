import StoicStore
import StoicTelemetry

/// How `query --signal traces`, `tail --signal traces` and `trace` print a span: one line of
/// text, or one JSON object per line.
enum SpanText {
  /// What an open span (a start with no end in the spool) shows where a duration would be.
  static let openMark = "open"
  /// What a span ended as unfinished shows as its status.
  static let unfinishedMark = "UNFINISHED"

  /// `TIME DURATION STATUS NAME trace=… span=… parent=… kind=… key=value …`: the start time
  /// with nanoseconds, local (UTC with `utc`); the status painted on a terminal; the parent
  /// and kind left out when there is none or it is `internal`; attributes sorted by key, then
  /// `events=N` and the status message when there are any. The span's text is escaped
  /// (`TerminalText/escaped(_:)`), so a span is always one line.
  static func line(_ span: QueriedSpan, style: Style, utc: Bool) -> String {
    let start = span.start
    var text = LogRecordText.time(start.startTimeNanoseconds, utc: utc) + " "
    text += pad(duration(span), 10) + " "
    let status = statusText(span)
    text += style(status, paint(span)) + String(repeating: " ", count: max(0, 10 - status.count))
    text += style(TerminalText.escaped(start.name), .cyan)
    text += " " + ids(start, style: style)
    if let end = span.end {
      text += attributes(end.attributes, style: style)
      if !end.events.isEmpty { text += " " + style("events", .dim) + "=\(end.events.count)" }
      if !end.status.message.isEmpty, !end.isUnfinished {
        text += " " + style("status.message", .dim) + "="
        text += TerminalText.escaped(end.status.message)
      }
    }
    return text
  }

  /// `trace=… span=… parent=… kind=…`, the parent and kind left out when there is none or it
  /// is `internal`.
  static func ids(_ start: SpanStart, style: Style) -> String {
    var text =
      style("trace", .dim) + "=\(start.traceID) " + style("span", .dim) + "=\(start.spanID)"
    if start.parentSpanID.isValid {
      text += " " + style("parent", .dim) + "=\(start.parentSpanID)"
    }
    if start.kind != .internal { text += " " + style("kind", .dim) + "=\(kindName(start.kind))" }
    return text
  }

  /// ` key=value …`, sorted by key, escaped; the unfinished mark's own attribute left out (the
  /// status says it).
  static func attributes(_ attributes: SpanRecordAttributes, style: Style) -> String {
    var text = ""
    for (key, value) in attributes.sorted(by: { $0.key < $1.key })
    where key != SpanEnd.unfinishedAttribute {
      text += " " + style(TerminalText.escaped(key), .dim) + "="
      text += TerminalText.escaped(describe(value))
    }
    return text
  }

  /// The span's duration, or ``openMark``.
  static func duration(_ span: QueriedSpan) -> String {
    span.durationNanoseconds.map { TimeFormat.duration(nanoseconds: $0) } ?? openMark
  }

  /// `unset`, `ok`, `error`, ``unfinishedMark`` or `open`.
  static func statusText(_ span: QueriedSpan) -> String {
    guard let end = span.end else { return openMark }
    return end.isUnfinished ? unfinishedMark : statusName(end.status.code)
  }

  /// OTLP's name of a span kind, lower case without the prefix: `server`, `client`, ….
  static func kindName(_ kind: SpanStart.Kind) -> String {
    switch kind {
    case .unspecified: "unspecified"
    case .internal: "internal"
    case .server: "server"
    case .client: "client"
    case .producer: "producer"
    case .consumer: "consumer"
    }
  }

  /// An attribute's value as text: a string as it is, an array as `[a, b]`.
  static func describe(_ value: SpanAttributeValue) -> String {
    switch value {
    case .string(let text): text
    case .bool(let flag): String(flag)
    case .int(let number): String(number)
    case .double(let number): String(number)
    case .array(let values): "[" + values.map(describe).joined(separator: ", ") + "]"
    }
  }

  /// `{"trace_id", "span_id", "parent_span_id", "name", "kind", "start_time", "end_time",
  /// "duration_ns", "status", "status_message", "unfinished", "open", "attributes", "events",
  /// "links", "dropped_attributes", "dropped_events", "dropped_links"}`: times in RFC 3339 UTC
  /// with nanoseconds, the parent `null` for a root, the end and duration `null` for an open
  /// span, attributes as JSON values.
  static func json(_ span: QueriedSpan) -> JSONValue {
    let start = span.start
    let end = span.end
    return .object([
      ("trace_id", .string(start.traceID.description)),
      ("span_id", .string(start.spanID.description)),
      (
        "parent_span_id",
        start.parentSpanID.isValid ? .string(start.parentSpanID.description) : .null
      ),
      ("name", .string(start.name)),
      ("kind", .string(kindName(start.kind))),
      ("start_time", .string(LogRecordText.time(start.startTimeNanoseconds, utc: true))),
      (
        "end_time",
        end.map { .string(LogRecordText.time($0.endTimeNanoseconds, utc: true)) } ?? .null
      ),
      ("duration_ns", span.durationNanoseconds.map { .int($0) } ?? .null),
      ("status", .string(end.map { statusName($0.status.code) } ?? openMark)),
      ("status_message", .string(end?.status.message ?? "")),
      ("unfinished", .bool(end?.isUnfinished ?? false)),
      ("open", .bool(end == nil)),
      ("attributes", json(end?.attributes ?? [:])),
      ("events", .array((end?.events ?? []).map(json))),
      ("links", .array((end?.links ?? []).map(json))),
      ("dropped_attributes", .unsigned(UInt64(end?.droppedAttributesCount ?? 0))),
      ("dropped_events", .unsigned(UInt64(end?.droppedEventsCount ?? 0))),
      ("dropped_links", .unsigned(UInt64(end?.droppedLinksCount ?? 0))),
    ])
  }

  /// `{"name", "time", "attributes"}`.
  static func json(_ event: SpanEnd.Event) -> JSONValue {
    .object([
      ("name", .string(event.name)),
      ("time", .string(LogRecordText.time(event.timeNanoseconds, utc: true))),
      ("attributes", json(event.attributes)),
    ])
  }

  /// `{"trace_id", "span_id", "attributes"}`.
  static func json(_ link: SpanEnd.Link) -> JSONValue {
    .object([
      ("trace_id", .string(link.traceID.description)),
      ("span_id", .string(link.spanID.description)),
      ("attributes", json(link.attributes)),
    ])
  }

  static func json(_ attributes: SpanRecordAttributes) -> JSONValue {
    .object(attributes.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
  }

  static func json(_ value: SpanAttributeValue) -> JSONValue {
    switch value {
    case .string(let text): .string(text)
    case .bool(let flag): .bool(flag)
    case .int(let number): .int(number)
    case .double(let number): .double(number)
    case .array(let values): .array(values.map(json))
    }
  }

  /// `unset`, `ok` or `error`.
  static func statusName(_ code: SpanEnd.Status.Code) -> String {
    switch code {
    case .unset: "unset"
    case .ok: "ok"
    case .error: "error"
    }
  }

  static func paint(_ span: QueriedSpan) -> Style.Paint {
    guard let end = span.end else { return .yellow }
    switch end.status.code {
    case .unset: return .dim
    case .ok: return .green
    case .error: return .red
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}
