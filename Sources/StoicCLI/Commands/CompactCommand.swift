import StoicCollector
import StoicStore
import StoicTelemetry

/// `stoic compact DIR`: compresses a journal's sealed segments, or compacts an outbox into a
/// snapshot. It writes, so it needs the store to itself.
enum CompactCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "compact",
    summary:
      "Compress a journal's sealed segments, or compact an outbox into a snapshot (writes; "
      + "refused while another process holds the store).",
    arguments: [ArgumentSpec("DIR", help: "A journal, outbox or telemetry spool directory.")],
    options: [CommonOptions.kind, CommonOptions.maxRecordSize],
    details: """
      compact first checks the store as verify does, without writing: a store held by another
      process is refused (exit 69, naming the holder's process id when the system can tell),
      and a damaged one is refused (exit 1) with nothing changed. Then it opens the store with
      the library, as an app would (its recovery runs: a torn tail is cut), and for a journal
      rewrites every sealed .log segment as a compressed .zst (each one written to a
      temporary, synced, renamed into place, then the .log removed), or, for an outbox,
      writes everything it holds as one snapshot and drops the records it covers. For a
      telemetry spool (refused while a process holds spool.lock), both journals are compressed
      and every sealed log segment without a valid summary gets one (stoic query skips
      segments by them).

      exit status: 0 done, 1 refused (damage found), 2 could not read or write, 64 usage,
      66 not a journal or outbox directory, 69 held by another process.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let kind = try CommonOptions.kind(command)
    let maxRecordSize = try CommonOptions.maxRecordSize(command)
    let location = try StoreLocation.locate(command.argument(0) ?? "", as: kind)
    guard location.kind.isDirectory else {
      throw CommandFailure(
        .noStore,
        "\(location.given): compact works on journal, outbox and spool directories, not on an "
          + "atomic file")
    }
    let isSpool = location.kind == .spool
    let lockFile = StorePath.join(location.path, isSpool ? "spool.lock" : JournalFileNames.lock)
    let holder = LockHolder.probe(lockFile: lockFile, pidFile: isSpool ? lockFile : nil)
    if holder.isHeld { throw heldFailure(location, holder) }
    let examination = await StoreExamination.run(
      location, maxRecordSize: maxRecordSize, permissions: false, progress: console.progress)
    console.progress.clear()
    if examination.damaged {
      console.lines(examination.findingLines(style: console.style).filter { $0.contains("DAMAGE") })
      throw CommandFailure(
        .damage,
        "\(location.path): damage found (stoic verify shows it); compact refused and changed nothing"
      )
    }
    if let failure = examination.failure {
      throw CommandFailure(.unreadable, "\(location.path): \(failure.message)")
    }
    let directories =
      examination.spool?.examinedJournals.map { $0.1.location.path } ?? [location.path]
    let before = try directories.reduce(0) { (sum, directory) throws(CommandFailure) in
      sum + (try directorySize(directory))
    }
    do throws(StoreError) {
      if let spool = examination.spool {
        for (_, journal) in spool.examinedJournals {
          try compactJournal(
            journal.location.path, examination: journal, maxRecordSize: maxRecordSize,
            console: console)
        }
        try updateSummaries(location.path, maxRecordSize: maxRecordSize, console: console)
      } else if examination.location.kind == .outbox {
        try await compactOutbox(location.path, maxRecordSize: maxRecordSize, console: console)
      } else {
        // A collector writes records up to its own limit, whatever the option says.
        let recordSize =
          examination.location.kind == .collector
          ? max(maxRecordSize, CollectorArchive.maxRecordBytes) : maxRecordSize
        try compactJournal(
          location.path, examination: examination, maxRecordSize: recordSize, console: console)
      }
    } catch {
      if error.code == .locked {
        throw heldFailure(location, LockHolder.probe(lockFile: lockFile))
      }
      throw CommandFailure(.unreadable, "\(location.path): \(error.message)")
    }
    console.progress.clear()
    let after = try directories.reduce(0) { (sum, directory) throws(CommandFailure) in
      sum + (try directorySize(directory))
    }
    console.line(
      "\(location.path): \(ByteCount.describe(before)) → \(ByteCount.describe(after)) on disk")
    return .success
  }

  /// Opens the journal for real, compresses every sealed `.log` segment, closes it.
  @MainActor
  private static func compactJournal(
    _ directory: String, examination: StoreExamination, maxRecordSize: Int, console: Console
  ) throws(StoreError) {
    let sealed = examination.journal?.segments.filter { $0.state == .sealed }.count ?? 0
    let progress = console.progress
    let log = EventLog { event in
      guard event.name == StoreEvents.journalCompacted.name else { return }
      progress.update("compressed \(StorePath.name(of: event["path"] ?? ""))")
    }
    let journal = try Journal.open(
      directory: directory, fileSystem: PosixFileSystem(),
      options: JournalOptions(maxRecordSize: maxRecordSize, backgroundMaintenance: false),
      events: log.sink)
    do throws(StoreError) {
      try journal.compressSealedSegments()
      try journal.close()
    } catch {
      try? journal.close()
      throw error
    }
    reportOpen(log, console: console)
    let compressed = log.named(StoreEvents.journalCompacted).count
    console.line(
      compressed == 0 && sealed == 0
        ? "\(directory): no sealed segment to compress"
        : "\(directory): compressed \(StoreExamination.count(compressed, "sealed segment"))")
  }

  /// Builds the summary of every sealed log segment of the spool at `root` that has none
  /// (`stoic query` skips segments by them) and removes those of dropped segments.
  @MainActor
  private static func updateSummaries(_ root: String, maxRecordSize: Int, console: Console)
    throws(StoreError)
  {
    let journal = try Journal.open(
      directory: StorePath.join(root, "logs"), fileSystem: PosixFileSystem(),
      options: LogQuery.readingOptions(maxRecordSize: maxRecordSize))
    defer { try? journal.close() }
    let store = SegmentSummaryStore(directory: SegmentSummaryStore.directory(ofSpool: root))
    let statistics = try store.update(from: journal)
    console.line(
      "\(root): \(StoreExamination.count(statistics.summariesWritten, "log segment summary", plural: "log segment summaries"))"
        + " written, \(statistics.summariesUsed) up to date")
  }

  /// Opens the outbox for real, writes its snapshot, closes it.
  @MainActor
  private static func compactOutbox(_ directory: String, maxRecordSize: Int, console: Console)
    async throws(StoreError)
  {
    let log = EventLog()
    var options = OutboxOptions()
    options.compactAfterRecords = nil
    let outbox = try await Outbox.open(
      directory: directory, fileSystem: PosixFileSystem(), codec: .bytes, options: options,
      journalOptions: JournalOptions(maxRecordSize: maxRecordSize, backgroundMaintenance: false),
      events: log.sink)
    do throws(StoreError) {
      try await outbox.compact()
      try await outbox.close()
    } catch {
      try? await outbox.close()
      throw error
    }
    reportOpen(log, console: console)
    let entries = log.named(StoreEvents.journalCompacted).last?["records"] ?? "0"
    console.line(
      "\(directory): outbox compacted into a snapshot; \(entries) journal records dropped")
  }

  /// Says what the library's open repaired on the way (a torn tail cut).
  private static func reportOpen(_ log: EventLog, console: Console) {
    for event in log.named(StoreEvents.journalTruncated) {
      console.line(
        "\(event["path"] ?? ""): the open cut a torn tail of \(event["droppedBytes"] ?? "?") "
          + "bytes and \(event["zeroBytes"] ?? "0") preallocated zeros")
    }
  }

  private static func heldFailure(_ location: StoreLocation, _ holder: LockHolder)
    -> CommandFailure
  {
    let who = holder.pid.map { "process \($0)" } ?? "another process"
    return CommandFailure(
      .held,
      "\(location.path) is held by \(who); compact writes, so it needs the store to itself: "
        + "stop \(who) or run compact when it is done")
  }

  /// The bytes of the files directly in `directory`.
  private static func directorySize(_ directory: String) throws(CommandFailure) -> UInt64 {
    do throws(StoreError) {
      return try StoreFile.list(directory, role: StoreFile.journalRole).reduce(0) {
        $0 + $1.status.size
      }
    } catch {
      throw CommandFailure(.unreadable, "\(directory): \(error.message)")
    }
  }
}
