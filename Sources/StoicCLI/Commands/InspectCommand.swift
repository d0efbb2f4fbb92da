/// `stoic inspect PATH`: what a store holds, read-only.
enum InspectCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "inspect",
    summary:
      "Show what a journal, outbox, collector store, settings/atomic file or telemetry spool "
      + "holds: segments, records, checkpoint, pending and parked entries, batches by key and "
      + "producer, drop counts, permissions, the lock holder.",
    arguments: [
      ArgumentSpec(
        "PATH",
        help:
          "A journal, outbox, collector (--data) or telemetry spool directory, or a "
          + "settings/atomic file.")
    ],
    options: [
      CommonOptions.json, CommonOptions.utc, CommonOptions.kind, CommonOptions.maxRecordSize,
    ],
    details: """
      inspect reads the store the way verify does, through the library's own open over a
      copy-on-write view of the files: nothing is written and the lock is not taken. It shows,
      for a journal, each segment (active, sealed, compressed) with its size, records and
      sequences, the checkpoint's low-water mark and snapshot, and what the library's next
      open would change (a torn tail cut, a temporary removed); for an outbox, also the
      pending entries and batches, the parked entries with their last error and the entries
      this build cannot read; for the example collector's store (its --data directory), the
      counts its /stats rebuilds at start, each producer, each batch stored with its key,
      producers, records and the replays answered from it, the key conflicts and the entries
      that do not decode; for an atomic file, each generation and what a read returns; for
      a telemetry spool, its identity, the lock holder (the process id in spool.lock), the drop
      counts by reason, the log records' time range and the segment summaries kept, then its
      log journal (logs/) and metrics samples' journal (metrics/samples/) as for a journal.
      Files the group or others can read are flagged. The lock holder is named from
      /proc/locks where the system has it, otherwise a non-blocking lock on a separate open
      file says whether another process holds it.

      exit status: 0 shown (damage, if any, is listed), 2 could not read, 64 usage, 66 no
      such store.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let examination = try await CommonOptions.examine(
      command, console: console, permissions: true)
    let utc = command.flag("utc")
    if command.flag("json") {
      console.json(examination.inspectionJSON(utc: utc).rendered())
    } else {
      console.lines(examination.inspectionLines(style: console.style, utc: utc))
    }
    return examination.failure != nil && !examination.damaged ? .unreadable : .success
  }
}
