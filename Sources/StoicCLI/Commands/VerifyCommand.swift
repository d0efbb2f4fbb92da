/// `stoic verify PATH`: checks a store the way the library reads it, without changing a byte.
enum VerifyCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "verify",
    summary:
      "Check every frame, checksum, sync marker, compressed block and envelope of a store "
      + "without changing a byte.",
    arguments: [
      ArgumentSpec(
        "PATH",
        help:
          "A journal, outbox, collector (--data) or telemetry spool directory, or a "
          + "settings/atomic file.")
    ],
    options: [CommonOptions.json, CommonOptions.kind, CommonOptions.maxRecordSize],
    details: """
      verify runs the library's own open and recovery, then reads every record, over a
      copy-on-write view of the files: every change the library would make stays in memory,
      nothing is written, and the store's lock is not taken, so a store another process holds
      is checked as it is. What the library refuses is damage; a torn tail (the end of the
      active segment after a crash in the middle of an append, never acknowledged as durable)
      is reported but is not damage, since the next open cuts it. Quarantined files
      (*.corrupt-*) are listed as notes. For an atomic file, each generation is checked on its
      own (magic, version, length, checksum). For the example collector's store, its entries
      are decoded too (one that does not decode is a warning: the collector keeps and counts
      it). For a telemetry spool, both its journals (logs/ and metrics/samples/) are checked,
      and its drop counters file read.

      exit status: 0 clean (nothing the library would refuse), 1 damage found (file, offset,
      length named), 2 could not read (permissions, I/O), 64 usage, 66 no such store.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let examination = try await CommonOptions.examine(
      command, console: console, permissions: false)
    let location = examination.location
    if command.flag("json") {
      console.json(json(examination).rendered())
      return examination.verifyStatus
    }
    console.line(console.style(location.path, .bold) + ": " + examination.summary)
    console.lines(examination.findingLines(style: console.style))
    console.line(examination.verdictLine(style: console.style))
    return examination.verifyStatus
  }

  /// `{"path", "kind", "status", "records", "findings", "error"}`.
  static func json(_ examination: StoreExamination) -> JSONValue {
    .object([
      ("path", .string(examination.location.path)),
      ("kind", .string(examination.location.kind.rawValue)),
      ("status", .string(examination.verdict)),
      ("records", examination.journal.map { .int(Int64($0.records)) } ?? .null),
      ("findings", .array(examination.findings.map(\.json))),
      ("error", .optional(examination.failure?.message)),
    ])
  }
}
