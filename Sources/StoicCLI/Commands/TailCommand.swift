import StoicStore
import StoicTelemetry

/// `stoic tail [-f] [-n N] DIR`: the newest log records (or, with `--signal traces`, spans) of
/// a telemetry spool, and with `-f` those written after, as the process that owns the spool
/// writes them.
enum TailCommand: StoicCommand {
  static let lines = OptionSpec.value(
    "lines", short: "n", valueName: "N", help: "Show the newest N records (default 10).")
  static let follow = OptionSpec.flag(
    "follow", short: "f",
    help: "Keep going: show records as they are logged, until interrupted.")
  static let json = OptionSpec.flag(
    "json", help: "One JSON object per record, one per line (as stoic query --json).")

  /// How long `-f` waits between looks at the spool.
  static let pollInterval = Duration.milliseconds(250)

  static let spec = CommandSpec(
    name: "tail",
    summary: "Show the newest log records of a telemetry spool; with -f, follow new ones.",
    arguments: [
      ArgumentSpec("DIR", help: "A telemetry spool's directory (or its logs/ or spans/ directory).")
    ],
    options: [
      SignalArgument.option, lines, follow, json, CommonOptions.utc, CommonOptions.maxRecordSize,
      CommonOptions.kind,
    ],
    details: """
      tail prints the newest records, oldest first, in the format of stoic query. With -f it
      then looks at the spool again four times a second and prints every record logged
      since, in order, each once, until it is interrupted. It reads as query does: through
      the library's own open over a copy-on-write view of the files, without the spool's
      lock, which the process writing the spool keeps; nothing is written. Records the
      forwarder or the quota dropped before tail saw them are not shown.

      On the example collector's store (its --data directory), tail shows the last log records
      it stored (in the order stored, mapped back from OTLP as stoic query does), and -f each
      one stored since.

      With --signal traces (or a spool's spans/ directory as DIR), tail shows the spans that
      ended last, in the format of stoic query --signal traces, and with -f each span as it
      ends (a span still running shows when it ends; one a crash cut short, when the spool's
      next open ends it as UNFINISHED).

      exit status: 0 done, 2 could not read, 64 usage, 66 no such spool (or, for traces, no
      spans in it).
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    var count = 10
    if let text = command.value("lines") {
      guard let parsed = Int(text), parsed >= 0 else {
        throw UsageError(
          "--lines takes a whole number of records (0 or more), not '\(text)'",
          command: command.command)
      }
      count = parsed
    }
    let maxRecordSize = try CommonOptions.maxRecordSize(command)
    let location = try SpoolLocation.locate(command.argument(0) ?? "")
    if try SignalArgument.parse(command) ?? location.implied == .traces {
      return try await tailTraces(
        location, count: count, follow: command.flag("follow"), maxRecordSize: maxRecordSize,
        command: command, console: console)
    }
    let printer = Printer(
      console: console, json: command.flag("json"), utc: command.flag("utc"))
    if try location.readsCollector(command) {
      return try await tailCollector(
        location, count: count, follow: command.flag("follow"), printer: printer,
        console: console)
    }
    var last = try read(location, maxRecordSize: maxRecordSize, console: console) {
      journal throws(StoreError) in
      let newest = try LogTail.newest(count, in: journal)
      printer.print(newest)
      return journal.lastSequence
    }
    console.flush()
    guard command.flag("follow") else { return .success }
    while true {
      try? await Task.sleep(for: pollInterval)
      last = try read(location, maxRecordSize: maxRecordSize, console: console) {
        journal throws(StoreError) in
        let now = journal.lastSequence
        guard now > last else { return last }
        try LogTail.forEachEntry(in: journal, from: last + 1, through: now) { printer.print($0) }
        return now
      }
      console.flush()
    }
  }

  /// `tail` on the example collector's store: its newest `count` log records (as
  /// ``CollectorLogReader`` maps them), then, with `follow`, each record stored since, the
  /// store opened afresh at every look.
  @MainActor
  static func tailCollector(
    _ location: SpoolLocation, count: Int, follow: Bool, printer: Printer, console: Console
  ) async throws(CommandFailure) -> ExitStatus {
    var shown: UInt64 = 0
    var first = true
    while true {
      if !first { try? await Task.sleep(for: pollInterval) }
      guard let archive = CollectorLogReader.open(location.logs) else {
        throw CommandFailure(.unreadable, "\(location.logs): the collector's store cannot be read")
      }
      var newest: [LogRecord] = []
      var seen = shown
      do throws(StoreError) {
        try CollectorLogReader.forEachRecord(in: archive) { record in
          guard record.sequence > shown else { return }
          seen = record.sequence
          if first {
            newest.append(record)
            if newest.count > count { newest.removeFirst() }
          } else {
            newest.append(record)
          }
        }
      } catch {
        try? archive.close()
        throw CommandFailure(.unreadable, "\(location.logs): \(error.message)")
      }
      try? archive.close()
      for record in newest { printer.print(.record(record)) }
      shown = seen
      console.flush()
      first = false
      guard follow else { return .success }
    }
  }

  /// Opens the spool's log journal afresh (a new view of its files), runs `body` on it and
  /// closes it.
  @MainActor
  static func read(
    _ location: SpoolLocation, maxRecordSize: Int, console: Console,
    _ body: (Journal) throws(StoreError) -> UInt64
  ) throws(CommandFailure) -> UInt64 {
    let opened = try SpoolReader.open(location.logs, maxRecordSize: maxRecordSize)
    defer { try? opened.journal.close() }
    if let warning = opened.warning { console.error("stoic tail: " + warning) }
    do throws(StoreError) {
      return try body(opened.journal)
    } catch {
      throw CommandFailure(.unreadable, "\(location.logs): \(error.message)")
    }
  }

  /// Prints entries as text or JSON lines.
  struct Printer {
    let console: Console
    let json: Bool
    let utc: Bool

    func print(_ entries: [LogEntry]) {
      for entry in entries { print(entry) }
    }

    func print(_ entry: LogEntry) {
      switch entry {
      case .record(let record) where json:
        console.json(LogRecordText.json(record).renderedLine())
      case .record(let record):
        console.line(LogRecordText.line(record, style: console.style, utc: utc))
      case .unreadable(let unreadable) where json:
        console.json(LogRecordText.json(unreadable).renderedLine())
      case .unreadable(let unreadable):
        console.line(LogRecordText.line(unreadable, style: console.style))
      }
    }
  }
}
