import StoicCollector
import StoicStore
import StoicTelemetry

/// `stoic query DIR`: the log records (or, with `--signal traces`, the spans) of a telemetry
/// spool that pass the filters given.
enum QueryCommand: StoicCommand {
  static let level = OptionSpec.value(
    "level", valueName: "LEVEL",
    help: "Only records of LEVEL and above (trace, debug, info, notice, warning, error, "
      + "critical; warn, err and crit also).")
  static let since = OptionSpec.value(
    "since", valueName: "TIME",
    help: "Only records logged at TIME or later: RFC 3339 (2026-12-01T10:00:00Z) or a time "
      + "ago (90s, 30m, 2h, 1d, 1w).")
  static let until = OptionSpec.value(
    "until", valueName: "TIME", help: "Only records logged before TIME (as --since).")
  static let label = OptionSpec.value(
    "label", valueName: "LABEL", help: "Only records logged with exactly this label.")
  static let condition = OptionSpec.value(
    "where", valueName: "KEY=VALUE", repeatable: true,
    help: "Only records whose metadata has VALUE at KEY (nested keys with dots: "
      + "http.status=500). Repeat for more conditions, all of which must hold.")
  static let grep = OptionSpec.value(
    "grep", valueName: "TEXT", help: "Only records whose message contains TEXT (case-sensitive).")
  static let limit = OptionSpec.value(
    "limit", short: "n", valueName: "N", help: "At most N records (the oldest that match).")
  static let json = OptionSpec.flag(
    "json", help: "One JSON object per record, one per line (for scripts).")
  static let stats = OptionSpec.flag(
    "stats",
    help: "After the records, print to standard error how many segments were read and skipped.")

  static let spec = CommandSpec(
    name: "query",
    summary: "Show the log records of a telemetry spool that pass the filters given.",
    arguments: [
      ArgumentSpec("DIR", help: "A telemetry spool's directory (or its logs/ or spans/ directory).")
    ],
    options: [
      SignalArgument.option, level, since, until, label, condition, grep, traceID, name, status,
      minDuration, maxDuration, limit, json, CommonOptions.utc, stats, CommonOptions.maxRecordSize,
      CommonOptions.kind,
    ],
    details: """
      query reads the spool's log journal through the library's own open over a copy-on-write
      view of its files: the spool's lock is not taken, so a spool another process writes is
      read as it is at that moment, and nothing in the journal is written. Records come
      oldest first, one per line: the time (local, or UTC with --utc, with nanoseconds), the
      level, the label, the message and the metadata; with --json one object per line with
      seq, time (RFC 3339 UTC with nanoseconds), level, label, message, metadata, source, file,
      function and line. Every filter given must hold. Memory stays bounded whatever the
      spool's size.

      Each sealed segment has a small summary (time range, levels, labels) in the spool's
      summaries/ directory; a segment whose summary rules every record out is skipped
      without being read. A summary that is missing, damaged, or does not cover its segment's
      records exactly is not used, and is rebuilt (written atomically) by the query that next
      reads the segment whole. The summaries are never trusted over the data: a segment that
      is read is checked record by record.

      On the example collector's store (its --data directory), query shows the log records it
      stored, in the order stored, each mapped back from OTLP (log.label, log.source and the
      code attributes to the label, source and location; the other attributes to the
      metadata), read the same way while the collector runs.

      With --signal traces (or a spool's spans/ directory as DIR), query shows the spool's
      spans instead, read the same way: one per line, the ended ones in the order they ended,
      then those whose start has no end in the spool (status open: still running, or cut
      short by a crash the spool has not been opened since; its next open ends them as
      UNFINISHED). Each line: the start time, the duration, the status, the name, the trace,
      span and parent ids, the kind (unless internal), the attributes, the number of events
      and the status message. With --json one object per line with trace_id, span_id,
      parent_span_id, name, kind, start_time, end_time, duration_ns, status, status_message,
      unfinished, open, attributes, events, links and the dropped counts. Spans are filtered
      by --trace-id, --name, --status, --min-duration, --max-duration and --since/--until (on
      the start time); an open span has no duration and passes no duration filter. stoic
      trace shows one trace as a tree.

      exit status: 0 done (damaged segments, if any, are reported and skipped), 2 could not
      read, 64 usage (a bad level, time, condition, limit, trace id, status or duration, or a
      filter of the other signal), 66 no such spool (or, for traces, no spans in it).
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let explicit = try SignalArgument.parse(command)
    let location = try SpoolLocation.locate(command.argument(0) ?? "")
    let signal = explicit ?? location.implied
    if signal == .traces {
      return try runTraces(command, location: location, console: console)
    }
    try rejectOptions(of: command, for: .logs)
    let query = try self.query(command, now: LogQueryTime.now)
    let maxRecordSize = try CommonOptions.maxRecordSize(command)
    if try location.readsCollector(command) {
      let archive = try CollectorLogReader.open(location)
      defer { try? archive.close() }
      return try queryCollector(archive, location: location, query: query, command, console)
    }
    let opened = try SpoolReader.open(location.logs, maxRecordSize: maxRecordSize)
    defer { try? opened.journal.close() }
    if let warning = opened.warning { console.error("stoic query: " + warning) }
    let summaries = location.summaries.map { SegmentSummaryStore(directory: $0) }
    let asJSON = command.flag("json")
    let utc = command.flag("utc")
    let statistics: LogQueryStatistics
    let showProgress = { (progress: LogQueryStatistics) in
      console.progress.update(
        "\(progress.segments) segments, \(progress.segmentsSkipped) skipped, "
          + "\(progress.matched) records found")
    }
    do throws(StoreError) {
      statistics = try query.run(
        on: opened.journal, summaries: summaries, progress: showProgress
      ) { record in
        if asJSON {
          console.json(LogRecordText.json(record).renderedLine())
        } else {
          console.line(LogRecordText.line(record, style: console.style, utc: utc))
        }
        return true
      }
    } catch {
      throw CommandFailure(.unreadable, "\(location.logs): \(error.message)")
    }
    console.progress.clear()
    if let damage = statistics.firstDamage {
      console.error(
        "stoic query: \(statistics.damagedSegments) damaged segments skipped (\(damage)); "
          + "stoic verify names the damage")
    }
    if command.flag("stats") { console.error(describe(statistics)) }
    return .success
  }

  /// `query` on the example collector's store: its log records, as ``CollectorLogReader``
  /// maps them, that pass the filters, in the order stored.
  @MainActor
  static func queryCollector(
    _ archive: CollectorArchive, location: SpoolLocation, query: LogQuery,
    _ command: ParsedCommand, _ console: Console
  ) throws(CommandFailure) -> ExitStatus {
    let asJSON = command.flag("json")
    let utc = command.flag("utc")
    var read = 0
    var matched = 0
    do throws(StoreError) {
      try CollectorLogReader.forEachRecord(in: archive) { record in
        read += 1
        guard matched < query.limit ?? Int.max, query.matches(record) else { return }
        matched += 1
        if asJSON {
          console.json(LogRecordText.json(record).renderedLine())
        } else {
          console.line(LogRecordText.line(record, style: console.style, utc: utc))
        }
      }
    } catch {
      throw CommandFailure(.unreadable, "\(location.logs): \(error.message)")
    }
    if command.flag("stats") {
      console.error("query: the collector's store, \(read) records read, \(matched) found")
    }
    return .success
  }

  /// The filters `command` gives.
  ///
  /// - Throws: ``UsageError`` for a level, time, condition or limit that does not parse.
  static func query(_ command: ParsedCommand, now: Int64) throws(UsageError) -> LogQuery {
    let limit = try limit(command)
    do throws(LogQueryError) {
      var query = LogQuery()
      if let name = command.value("level") {
        guard let level = LevelArgument.level(name) else { throw .unknownLevel(name) }
        query.minimumLevel = level
      }
      query.since = try command.value("since").map { text throws(LogQueryError) in
        try LogQueryTime.parse(text, now: now)
      }
      query.until = try command.value("until").map { text throws(LogQueryError) in
        try LogQueryTime.parse(text, now: now)
      }
      if let since = query.since, let until = query.until, since >= until {
        throw .emptyTimeRange(since: since, until: until)
      }
      query.label = command.value("label")
      query.conditions = try command.values("where").map { text throws(LogQueryError) in
        try LogMetadataCondition(parsing: text)
      }
      query.text = command.value("grep")
      query.limit = limit
      return query
    } catch {
      throw UsageError(error.description, command: command.command)
    }
  }

  /// The `--limit` given, if any.
  ///
  /// - Throws: ``UsageError`` for anything but a whole number, 0 or more.
  static func limit(_ command: ParsedCommand) throws(UsageError) -> Int? {
    guard let text = command.value("limit") else { return nil }
    guard let limit = Int(text), limit >= 0 else {
      throw UsageError(
        "--limit takes a whole number of records (0 or more), not '\(text)'",
        command: command.command)
    }
    return limit
  }

  /// `query: 12 segments, 9 skipped (75%), 40960 records read, 17 found`.
  static func describe(_ statistics: LogQueryStatistics) -> String {
    let percent = Int((statistics.skippedFraction * 100).rounded())
    return "query: \(statistics.segments) segments, \(statistics.segmentsSkipped) skipped "
      + "(\(percent)%), \(statistics.recordsRead) records read, \(statistics.matched) found, "
      + "\(statistics.summariesWritten) summaries written, \(statistics.summariesInvalid) "
      + "summaries invalid, \(statistics.unreadable) unreadable"
  }
}
