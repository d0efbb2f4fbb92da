import StoicStore
import StoicTelemetry

/// `stoic trace DIR TRACE_ID`: one trace of a telemetry spool as a tree of its spans.
enum TraceCommand: StoicCommand {
  static let json = OptionSpec.flag(
    "json",
    help: "One JSON document: the trace id and its spans in tree order, each with its "
      + "depth (for scripts).")

  static let spec = CommandSpec(
    name: "trace",
    summary: "Show one trace of a telemetry spool as a tree of its spans.",
    arguments: [
      ArgumentSpec("DIR", help: "A telemetry spool's directory (or its spans/ directory)."),
      ArgumentSpec(
        "TRACE_ID", help: "The trace's id, 32 hex digits, or enough of its start to name one."),
    ],
    options: [json, CommonOptions.utc, CommonOptions.maxRecordSize],
    details: """
      trace reads the spool's span journal as stoic query --signal traces does (without the
      spool's lock, nothing written) and prints the spans of one trace as a tree: a first line
      with the trace id, its number of spans, how many are open and unfinished, when it
      started and how long it took; then one line per span, indented under its parent,
      children in the order they started: the name, the duration, the status, the span id,
      the kind (unless internal), the attributes and the status message. A span that ended
      shows its duration; UNFINISHED marks one the process did not live to end (Stoic ended
      it at the last time the process was known alive); open marks one whose start is in the
      spool and whose end is not (still running, or cut short by a crash the spool has not
      been opened since). A span whose parent is not in the spool (a remote caller's, or one
      already forwarded and dropped) is a root, with that parent's id shown.

      exit status: 0 done, 1 no span of that trace in the spool, 2 could not read, 64 usage
      (a trace id that is not hex, or the start of several traces' ids), 66 no such spool or
      no spans in it.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let prefix = try QueryCommand.traceIDPrefix(command.argument(1) ?? "", command: command)
    let maxRecordSize = try CommonOptions.maxRecordSize(command)
    let location = try SpoolLocation.locate(command.argument(0) ?? "")
    let journal = try SpanJournal.open(
      location, maxRecordSize: maxRecordSize, command: command, console: console)
    defer { try? journal.close() }
    var spans: [QueriedSpan] = []
    var traces = Set<TraceID>()
    do throws(StoreError) {
      try SpanQuery(traceIDPrefix: prefix).run(on: journal) { span in
        spans.append(span)
        traces.insert(span.start.traceID)
        return true
      }
    } catch {
      throw CommandFailure(.unreadable, "\(location.spans): \(error.message)")
    }
    guard traces.count <= 1 else {
      let some = traces.map(\.description).sorted().prefix(5).joined(separator: ", ")
      throw UsageError(
        "\(traces.count) traces' ids start with \(prefix) (\(some)\(traces.count > 5 ? ", …" : "")):"
          + " give more of the id", command: command.command)
    }
    guard let trace = traces.first else {
      throw CommandFailure(.damage, "no span of trace \(prefix) in \(location.spans)")
    }
    let tree = TraceTree(spans)
    if command.flag("json") {
      let rows = tree.rows.map { row -> JSONValue in
        guard case .object(var members) = SpanText.json(row.span) else { return .null }
        members.append(("depth", .int(Int64(row.depth))))
        return .object(members)
      }
      console.json(
        JSONValue.object([("trace_id", .string(trace.description)), ("spans", .array(rows))])
          .rendered())
      return .success
    }
    console.line(summary(trace, spans: spans, style: console.style, utc: command.flag("utc")))
    for row in tree.rows { console.line(line(row, style: console.style)) }
    return .success
  }

  /// `trace 4bf9…: 5 spans (1 open, 1 unfinished), started TIME, 1.234s`.
  static func summary(_ trace: TraceID, spans: [QueriedSpan], style: Style, utc: Bool) -> String {
    let open = spans.count { $0.end == nil }
    let unfinished = spans.count { $0.end?.isUnfinished ?? false }
    var text =
      style("trace \(trace)", .cyan) + ": \(spans.count) span\(spans.count == 1 ? "" : "s")"
    var notes: [String] = []
    if open > 0 { notes.append("\(open) open") }
    if unfinished > 0 { notes.append("\(unfinished) unfinished") }
    if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    let starts = spans.map(\.start.startTimeNanoseconds)
    if let first = starts.min() {
      text += ", started " + LogRecordText.time(first, utc: utc)
      if let last = spans.compactMap(\.end?.endTimeNanoseconds).max(), last >= first {
        text += ", " + TimeFormat.duration(nanoseconds: last - first)
      }
    }
    return text
  }

  /// `├─ NAME  DURATION  STATUS  span=… kind=… key=value …`, the text escaped.
  static func line(_ row: TraceTree.Row, style: Style) -> String {
    let span = row.span
    let status = SpanText.statusText(span)
    var text = style(row.prefix, .dim) + TerminalText.escaped(span.start.name) + "  "
    text += SpanText.duration(span) + "  " + style(status, SpanText.paint(span))
    text += "  " + style("span", .dim) + "=\(span.start.spanID)"
    if span.start.kind != .internal {
      text += " " + style("kind", .dim) + "=\(SpanText.kindName(span.start.kind))"
    }
    if let parent = row.missingParent {
      text += " " + style("parent", .dim) + "=\(parent) " + style("(not in the spool)", .dim)
    }
    if let end = span.end {
      text += SpanText.attributes(end.attributes, style: style)
      if !end.status.message.isEmpty, !end.isUnfinished {
        text += " " + style("status.message", .dim) + "=" + TerminalText.escaped(end.status.message)
      }
    }
    return text
  }
}
