import StoicCollector
import StoicStore

/// Everything `verify` and `inspect` learn about one store, found through the library's own
/// open and reads over an ``OverlayFileSystem`` (nothing on the disk changes, no lock is
/// taken), plus who holds the store's lock.
struct StoreExamination {
  /// Where the store is and what it turned out to be.
  var location: StoreLocation
  /// The journal (of a journal or an outbox store).
  var journal: JournalExamination?
  /// The outbox's entries (of an outbox store whose journal could be read).
  var outbox: OutboxExamination?
  /// The collector's batches, duplicates and conflicts (of a collector's store whose journal
  /// could be read).
  var collector: CollectorExamination?
  /// The atomic file's generations.
  var atomicFile: AtomicFileExamination?
  /// Who holds the lock (journals, outboxes and spools).
  var lock: LockHolder?
  /// The spool's files and journals (of a telemetry spool).
  var spool: SpoolExamination?

  /// How many times a store held by a live writer is read before damage found in it is
  /// believed.
  static let liveRetries = 8

  /// Examines the store at `location`, on the main actor: the reads block its thread, never
  /// one of the cooperative pool's.
  ///
  /// - Parameters:
  ///   - maxRecordSize: The journal's largest record (see `JournalOptions/maxRecordSize`).
  ///   - permissions: Also report files the group or others can read.
  ///   - progress: The progress line for long reads.
  @MainActor
  static func run(
    _ location: StoreLocation, maxRecordSize: Int, permissions: Bool, progress: ProgressLine
  ) async -> StoreExamination {
    var examination = StoreExamination(location: location)
    switch location.kind {
    case .spool:
      let lockFile = StorePath.join(location.path, "spool.lock")
      examination.lock = LockHolder.probe(lockFile: lockFile, pidFile: lockFile)
      examination.spool = await SpoolExamination.run(
        root: location.path, maxRecordSize: maxRecordSize, permissions: permissions,
        progress: progress)
    case .atomicFile:
      var file = AtomicFileExamination.run(path: location.path)
      if permissions {
        let exposed = file.generations.map(\.file) + file.files
        file.findings += StoreFile.findings(exposed, directory: nil, permissions: true).filter {
          $0.kind == .permissions
        }
      }
      examination.atomicFile = file
    case .journal, .outbox, .collector:
      examination.lock = LockHolder.probe(
        lockFile: StorePath.join(location.path, JournalFileNames.lock))
      // What the journal holds is told first, by its first record read at the largest size
      // any kind writes: a collector's first batch over the option's size is not damage.
      if !location.forced, location.kind == .journal {
        examination.location.kind = JournalContent.detect(location.path)
      }
      let location = examination.location
      // A collector writes records up to its own limit, whatever the option says.
      var recordSize =
        location.kind == .collector
        ? max(maxRecordSize, CollectorArchive.maxRecordBytes) : maxRecordSize
      var journal = JournalExamination.run(
        directory: location.path, maxRecordSize: recordSize, progress: progress)
      if !location.forced, journal.looksLikeCollector, journal.damaged,
        recordSize < CollectorArchive.maxRecordBytes
      {
        recordSize = CollectorArchive.maxRecordBytes
        journal = JournalExamination.run(
          directory: location.path, maxRecordSize: recordSize, progress: progress)
      }
      // A live writer appends, rolls and compresses while the files are read: a frame half
      // written when its window was read and a marker after it written by the time the next
      // window was, or a segment compressed and removed between the listing and its open.
      // What a moment's writing explains is gone on a second look; damage stays.
      var looks = 1
      while examination.lock?.isHeld == true, journal.damaged || journal.failure != nil,
        looks < liveRetries
      {
        looks += 1
        try? await Task.sleep(for: .milliseconds(50))
        journal = JournalExamination.run(
          directory: location.path, maxRecordSize: recordSize, progress: progress)
      }
      if let holder = examination.lock, holder.isHeld {
        journal.findings.append(
          Finding(
            .note, .recovery,
            "\(holder.description): read as it was while that process writes (a torn tail "
              + "there is an append in progress)"))
      }
      if permissions, let status = journal.directoryStatus {
        journal.findings += StoreFile.findings(
          journal.files, directory: (location.path, status), permissions: true
        ).filter { $0.kind == .permissions }
      }
      if !location.forced, !JournalContent.isSpoolJournal(location.path) {
        if journal.looksLikeCollector {
          examination.location.kind = .collector
        } else if journal.looksLikeOutbox {
          examination.location.kind = .outbox
        }
      }
      if examination.location.kind == .collector, !journal.damaged, journal.failure == nil {
        examination.collector = CollectorExamination.run(
          directory: location.path, maxRecordSize: recordSize)
      }
      if examination.location.kind == .outbox, !journal.damaged, journal.failure == nil {
        examination.outbox = await OutboxExamination.run(
          directory: location.path, maxRecordSize: maxRecordSize)
      }
      examination.journal = journal
    }
    return examination
  }

  /// Every finding, damage first (in the order found within a severity).
  var findings: [Finding] {
    let all =
      (journal?.findings ?? []) + (outbox?.findings ?? []) + (collector?.findings ?? [])
      + (atomicFile?.findings ?? [])
      + (spool?.allFindings ?? [])
    return all.enumerated().sorted {
      ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset)
    }
    .map(\.element)
  }

  /// Whether anything the library would refuse was found.
  var damaged: Bool { findings.contains { $0.severity == .damage } }

  /// The error that kept the store from being read, if any.
  var failure: StoreError? {
    journal?.failure ?? outbox?.failure ?? collector?.failure ?? atomicFile?.failure
      ?? spool?.firstFailure
  }

  /// The status `verify` exits with: 1 for damage, else 2 when reading failed, else 0.
  var verifyStatus: ExitStatus {
    if damaged { return .damage }
    if failure != nil { return .unreadable }
    return .success
  }

  /// `clean`, `damaged` or `unreadable`.
  var verdict: String {
    switch verifyStatus {
    case .damage: "damaged"
    case .unreadable: "unreadable"
    default: "clean"
    }
  }

  /// `path` shown relative to the store's directory (a file of the store by its name).
  func shortName(_ path: String?) -> String {
    guard let path else { return location.path }
    let base = location.kind.isDirectory ? location.path : StorePath.directory(of: location.path)
    if path == location.path { return StorePath.name(of: path) }
    if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
  }
}
