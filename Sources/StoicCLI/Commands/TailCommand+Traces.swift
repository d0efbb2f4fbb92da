import StoicStore
import StoicTelemetry

/// `stoic tail --signal traces [-f] [-n N] DIR`: the spans that ended last, and with `-f` each
/// span as it ends.
extension TailCommand {
  /// Prints the newest `count` spans that ended, then, with `follow`, each one that ends
  /// after, the span journal opened afresh at every look.
  @MainActor
  static func tailTraces(
    _ location: SpoolLocation, count: Int, follow: Bool, maxRecordSize: Int,
    command: ParsedCommand, console: Console
  ) async throws -> ExitStatus {
    let json = command.flag("json")
    let utc = command.flag("utc")
    func print(_ end: SpanEnd) {
      if json {
        console.json(SpanText.json(.ended(end)).renderedLine())
      } else {
        console.line(SpanText.line(.ended(end), style: console.style, utc: utc))
      }
    }
    var last: UInt64 = 0
    var first = true
    while true {
      if !first { try? await Task.sleep(for: pollInterval) }
      let journal = try SpanJournal.open(
        location, maxRecordSize: maxRecordSize, command: command, console: console)
      defer { try? journal.close() }
      do throws(StoreError) {
        let now = journal.lastSequence
        if first {
          for end in try SpanQuery.newestEnded(count, in: journal) { print(end) }
        } else if now > last {
          try SpanQuery.forEachEnd(
            in: journal, from: max(last + 1, journal.lowWaterMark + 1), through: now, print)
        }
        last = max(last, now)
      } catch {
        throw CommandFailure(.unreadable, "\(location.spans): \(error.message)")
      }
      console.flush()
      first = false
      guard follow else { return .success }
    }
  }
}
