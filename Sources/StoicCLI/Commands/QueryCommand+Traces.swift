import StoicStore
import StoicTelemetry

/// `stoic query --signal traces DIR`: the spans of a telemetry spool that pass the filters given.
extension QueryCommand {
  static let traceID = OptionSpec.value(
    "trace-id", valueName: "HEX",
    help: "Only spans of the trace whose id starts with HEX (1 to 32 hex digits; traces).")
  static let name = OptionSpec.value(
    "name", valueName: "NAME", help: "Only spans with exactly this name (traces).")
  static let status = OptionSpec.value(
    "status", valueName: "STATUS",
    help: "Only spans with this status: unset, ok, error, unfinished (ended by Stoic: the "
      + "process ended first) or open (no end in the spool yet) (traces).")
  static let minDuration = OptionSpec.value(
    "min-duration", valueName: "DURATION",
    help: "Only spans that took at least DURATION (500us, 250ms, 1.5s, 2m, 1h; traces).")
  static let maxDuration = OptionSpec.value(
    "max-duration", valueName: "DURATION",
    help: "Only spans that took at most DURATION (traces).")

  /// The options only a log query takes, and only a span query.
  static let logOnly = [level, label, condition, grep].map(\.name)
  static let traceOnly = [traceID, name, status, minDuration, maxDuration].map(\.name)

  /// Refuses the options of the other signal.
  ///
  /// - Throws: ``UsageError`` naming the first option given that `signal` does not take.
  static func rejectOptions(of command: ParsedCommand, for signal: SignalArgument)
    throws(UsageError)
  {
    let foreign = signal == .traces ? logOnly : traceOnly
    guard let given = foreign.first(where: { command.value($0) != nil }) else { return }
    throw UsageError(
      "--\(given) filters \(signal == .traces ? "log records" : "spans (--signal traces)"), "
        + "not \(signal == .traces ? "spans" : "log records")", command: command.command)
  }

  /// The span filters `command` gives.
  ///
  /// - Throws: ``UsageError`` for a trace id, status, duration, time or limit that does not
  ///   parse.
  static func spanQuery(_ command: ParsedCommand, now: Int64) throws(UsageError) -> SpanQuery {
    var query = SpanQuery()
    query.limit = try limit(command)
    if let text = command.value("trace-id") {
      query.traceIDPrefix = try traceIDPrefix(text, command: command)
    }
    query.name = command.value("name")
    if let text = command.value("status") {
      guard let status = SpanQuery.StatusFilter(rawValue: text.lowercased()) else {
        let known = SpanQuery.StatusFilter.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError(
          "--status takes one of \(known), not '\(text)'", command: command.command)
      }
      query.status = status
    }
    query.minimumDuration = try DurationArgument.value("min-duration", of: command)
    query.maximumDuration = try DurationArgument.value("max-duration", of: command)
    if let low = query.minimumDuration, let high = query.maximumDuration, low > high {
      throw UsageError(
        "--min-duration is longer than --max-duration: no span can match",
        command: command.command)
    }
    do throws(LogQueryError) {
      query.since = try command.value("since").map { text throws(LogQueryError) in
        try LogQueryTime.parse(text, now: now)
      }
      query.until = try command.value("until").map { text throws(LogQueryError) in
        try LogQueryTime.parse(text, now: now)
      }
      if let since = query.since, let until = query.until, since >= until {
        throw .emptyTimeRange(since: since, until: until)
      }
    } catch {
      throw UsageError(error.description, command: command.command)
    }
    return query
  }

  /// A trace id or the start of one, in lower case.
  ///
  /// - Throws: ``UsageError`` for anything but 1 to 32 hex digits.
  static func traceIDPrefix(_ text: String, command: ParsedCommand) throws(UsageError) -> String {
    let prefix = text.lowercased()
    guard (1...32).contains(prefix.utf8.count),
      prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else {
      throw UsageError(
        "a trace id is 1 to 32 hex digits (its start names the traces it begins), not "
          + "'\(TerminalText.escaped(text))'", command: command.command)
    }
    return prefix
  }

  /// Runs a span query on the spool's span journal and prints what it finds.
  @MainActor
  static func runTraces(
    _ command: ParsedCommand, location: SpoolLocation, console: Console
  ) throws -> ExitStatus {
    try rejectOptions(of: command, for: .traces)
    let query = try spanQuery(command, now: LogQueryTime.now)
    let maxRecordSize = try CommonOptions.maxRecordSize(command)
    let opened = try SpanJournal.open(
      location, maxRecordSize: maxRecordSize, command: command, console: console)
    defer { try? opened.close() }
    let asJSON = command.flag("json")
    let utc = command.flag("utc")
    let statistics: SpanQueryStatistics
    do throws(StoreError) {
      statistics = try query.run(on: opened) { span in
        if asJSON {
          console.json(SpanText.json(span).renderedLine())
        } else {
          console.line(SpanText.line(span, style: console.style, utc: utc))
        }
        return true
      }
    } catch {
      throw CommandFailure(.unreadable, "\(location.spans): \(error.message)")
    }
    if statistics.unreadable > 0 {
      console.error(
        "stoic query: \(statistics.unreadable) span records this build cannot read were "
          + "skipped; stoic verify names the damage")
    }
    if command.flag("stats") {
      console.error(
        "query: \(statistics.recordsRead) span records read, \(statistics.ended) spans ended, "
          + "\(statistics.open) open, \(statistics.unreadable) unreadable, "
          + "\(statistics.matched) found")
    }
    return .success
  }
}
