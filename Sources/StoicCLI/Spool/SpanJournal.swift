import StoicStore
import StoicTelemetry

/// Opens a spool's span journal (`spans/`) the way `query`, `tail` and `trace` read it: as
/// ``SpoolReader`` opens the log journal, over a fresh overlay, without the lock.
enum SpanJournal {
  /// Opens the span journal at `location` and prints a salvage's warning, if any, as
  /// `command`'s.
  ///
  /// - Throws: ``UsageError`` for the example collector's store (its spans are not read by
  ///   the tool); ``CommandFailure``: ``ExitStatus/noStore`` for a spool without `spans/` (its
  ///   process never asked for spans), ``ExitStatus/unreadable`` for a journal that cannot be
  ///   read.
  @MainActor
  static func open(
    _ location: SpoolLocation, maxRecordSize: Int, command: ParsedCommand, console: Console
  ) throws -> Journal {
    if try location.readsCollector(command) {
      throw UsageError(
        "spans are read from a telemetry spool; on the collector's store, \(command.command) "
          + "reads its log records (without --signal traces)", command: command.command)
    }
    let directory = location.spans
    guard (try? FileStatus.of(directory)) != nil else {
      throw CommandFailure(
        .noStore,
        "\(location.given): no spans (no spans/ directory: the spool was never opened with "
          + "spans)")
    }
    let opened = try SpoolReader.open(directory, maxRecordSize: maxRecordSize)
    if let warning = opened.warning { console.error("stoic \(command.command): " + warning) }
    return opened.journal
  }
}
