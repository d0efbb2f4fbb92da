import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `inspect`, `verify` and `compact` learn about a telemetry spool: its identity, its
/// own files, its drop counters, and each of its journals (the log journal in `logs/`, the
/// metrics samples in `metrics/samples/`, the spans in `spans/`) examined as a journal is, through the library's own
/// open over a copy-on-write view (nothing written, no lock taken).
///
/// A class: a store's examination holds its spool's, which holds its journals'.
final class SpoolExamination {
  /// The spool's root.
  var root: String
  /// The identity in `spool.id`, if it reads.
  var identity: String?
  /// The files directly in the root.
  var files: [StoreFile] = []
  /// What the drop counters file holds.
  var drops: SpoolDropCounters.Stored?
  /// What the span drop counters file (`span-drops`) holds, when there is one.
  var spanDrops: SpoolDropCounters.Stored?
  /// The journals examined, by name (`logs`, `metrics`, `spans`; one missing is left out), in an
  /// array, since a store's examination holds its spool's.
  var examinedJournals: [(String, StoreExamination)] = []
  /// The span journal's spans, ended and open (`inspect` only).
  var spanCounts: SpanQueryStatistics?
  /// The earliest and latest times of the log records (`inspect` only).
  var logTimes: (earliest: Int64, latest: Int64)?
  /// How many segment summaries are kept.
  var summaries = 0
  /// Every metric series' current value as the spool would continue it, read from its live
  /// files over the overlay (`inspect` only): what a killed process left, which the samples'
  /// journal holds only from the last flush on.
  var liveMetrics: [MetricSample]?
  /// How the metrics spool would open: its live files adopted (`nil`), or why rebuilt.
  var liveMetricsRebuilt: String?
  /// What was found in the root (the journals' findings are theirs).
  var findings: [Finding] = []
  /// An error that kept the tool from reading the root.
  var failure: StoreError?

  init(root: String) { self.root = root }

  /// The journals of a spool: their names and directories under the root.
  static let journals = [("logs", "logs"), ("metrics", "metrics/samples"), ("spans", "spans")]

  /// Examines the spool at `root`.
  ///
  /// - Parameters:
  ///   - permissions: Also report files the group or others can read, and read the log
  ///     records' time range (`inspect`).
  @MainActor
  static func run(root: String, maxRecordSize: Int, permissions: Bool, progress: ProgressLine)
    async -> SpoolExamination
  {
    let examination = SpoolExamination(root: root)
    let disk = PosixFileSystem()
    do throws(StoreError) {
      let status = try FileStatus.of(root)
      examination.files = try StoreFile.list(root, role: StoreFile.spoolRole)
      examination.findings += StoreFile.findings(
        examination.files, directory: status.map { (root, $0) }, permissions: permissions)
      // Read as the library reads it, over the overlay: what a read would quarantine stays
      // in memory.
      let identityFile = AtomicFile(
        path: StorePath.join(root, "spool.id"), fileSystem: OverlayFileSystem())
      if let read = try? identityFile.read() {
        examination.identity =
          SpoolIdentity(
            hex: String(decoding: read.bytes, as: UTF8.self).prefix(32))?.hex
      }
      for name in ["drops", "span-drops"] {
        let path = StorePath.join(root, name)
        let present = try FileStatus.of(path) != nil
        guard name == "drops" || present else { continue }
        let drops = try SpoolDropCounters.readStored(path: path, fileSystem: disk)
        if name == "drops" { examination.drops = drops } else { examination.spanDrops = drops }
        switch drops {
        case .damaged(let why):
          examination.findings.append(
            Finding(
              .warning, .recovery, file: path,
              "the drop counters do not read (\(why)): the next open sets the file aside and "
                + "counts from zero"))
        case .newerVersion(let version):
          examination.findings.append(
            Finding(
              .warning, .recovery, file: path,
              "the drop counters were written by a newer build (version \(version))"))
        case .counts, .missing: break
        }
      }
      examination.summaries =
        SegmentSummaryStore(directory: SegmentSummaryStore.directory(ofSpool: root))
        .summarised().count
    } catch {
      examination.failure = error
    }
    for (name, path) in journals {
      let directory = StorePath.join(root, path)
      guard (try? FileStatus.of(directory)) != nil else { continue }
      let location = StoreLocation(path: directory, given: directory, kind: .journal, forced: true)
      let journal = await StoreExamination.run(
        location, maxRecordSize: maxRecordSize, permissions: permissions, progress: progress)
      examination.examinedJournals.append((name, journal))
    }
    if permissions {
      let covered = Set([root] + journals.map { StorePath.join(root, $0.1) })
      examination.findings += exposedBelow(root: root, covered: covered)
    }
    if permissions, examination.logs?.journal?.records ?? 0 > 0 {
      examination.readLogTimes(maxRecordSize: maxRecordSize)
    }
    if permissions { examination.readLiveMetrics() }
    if permissions { examination.readSpanCounts(maxRecordSize: maxRecordSize) }
    return examination
  }

  /// Opens the metrics spool as the library would, over the overlay (nothing written, no lock
  /// taken, no interval flush), and keeps every series' current value.
  func readLiveMetrics() {
    let directory = StorePath.join(root, "metrics")
    guard (try? FileStatus.of(directory)) != nil else { return }
    var options = MetricsOptions()
    options.flushInterval = nil
    guard
      let metrics = try? MetricsSpool.open(
        directory: directory, fileSystem: OverlayFileSystem(), options: options)
    else { return }
    liveMetrics = metrics.currentSamples()
    liveMetricsRebuilt = metrics.recovery.rebuiltReason
  }

  /// How deep below the root ``exposedBelow(root:covered:)`` looks.
  static let maxDepth = 6
  /// How many directories ``exposedBelow(root:covered:)`` looks at, at most.
  static let maxDirectories = 1024

  /// Files and directories below `root` the group or others can read, in every directory
  /// but those in `covered` (the root and the journals, which their own examinations check):
  /// `metrics/` and its live files, `forwarding/` and the outbox's journal, `summaries/`, and
  /// whatever else is there, down to ``maxDepth`` levels and ``maxDirectories`` directories.
  /// A directory that cannot be listed is passed over (the examinations report what they
  /// cannot read).
  static func exposedBelow(root: String, covered: Set<String>) -> [Finding] {
    var findings: [Finding] = []
    var pending = [(path: root, depth: 0)]
    var visited = 0
    while let (directory, depth) = pending.popLast(), visited < maxDirectories {
      visited += 1
      guard let files = try? StoreFile.list(directory, role: { _ in .other }),
        let status = try? FileStatus.of(directory)
      else { continue }
      if !covered.contains(directory) {
        findings += StoreFile.findings(
          files, directory: (directory, status), permissions: true
        ).filter { $0.kind == .permissions }
      }
      guard depth < maxDepth else { continue }
      for file in files.reversed()
      where file.status.kind == .directory && !isSymbolicLink(file.path) {
        pending.append((file.path, depth + 1))
      }
    }
    return findings
  }

  /// Whether `path` is a symbolic link (not followed by the walk: a loop stays out of it).
  private static func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  /// Reads the log records' times (from their headers): the earliest and latest of all, and
  /// of each segment, set on the log journal's segments.
  func readLogTimes(maxRecordSize: Int) {
    let directory = StorePath.join(root, "logs")
    guard let index = examinedJournals.firstIndex(where: { $0.0 == "logs" }),
      var journal = examinedJournals[index].1.journal,
      let opened = try? SpoolReader.open(directory, maxRecordSize: maxRecordSize)
    else { return }
    defer { try? opened.journal.close() }
    let firsts = journal.segments.map(\.first)
    var times: [UInt64: ClosedRange<Int64>] = [:]
    var segment = 0
    try? opened.journal.forEachRecordBorrowing { (sequence, bytes) throws(StoreError) in
      guard let header = LogRecordFormat.header(of: bytes) else { return }
      while segment + 1 < firsts.count, firsts[segment + 1] <= sequence { segment += 1 }
      let time = header.timeNanoseconds
      let key = firsts.isEmpty ? 0 : firsts[segment]
      let known = times[key]
      times[key] = min(known?.lowerBound ?? time, time)...max(known?.upperBound ?? time, time)
      logTimes = (min(logTimes?.earliest ?? time, time), max(logTimes?.latest ?? time, time))
    }
    for position in journal.segments.indices {
      journal.segments[position].times = times[journal.segments[position].first]
    }
    examinedJournals[index].1.journal = journal
  }

  /// Counts the span journal's ended and open spans (`inspect` only), read as `stoic query
  /// --signal traces` reads them.
  func readSpanCounts(maxRecordSize: Int) {
    let directory = StorePath.join(root, "spans")
    guard examinedJournals.contains(where: { $0.0 == "spans" }),
      let opened = try? SpoolReader.open(directory, maxRecordSize: maxRecordSize)
    else { return }
    defer { try? opened.journal.close() }
    spanCounts = try? SpanQuery().run(on: opened.journal) { _ in true }
  }

  /// The log journal's examination.
  var logs: StoreExamination? { examinedJournals.first { $0.0 == "logs" }?.1 }

  /// Every finding: the root's and the journals'.
  var allFindings: [Finding] {
    findings + examinedJournals.flatMap { $0.1.findings }
  }

  /// The first error that kept part of the spool from being read.
  var firstFailure: StoreError? {
    failure ?? examinedJournals.lazy.compactMap(\.1.failure).first
  }

  /// The drop counts, if the file reads.
  var dropCounts: SpoolDropCounts? {
    if case .counts(let counts, _)? = drops { return counts }
    return nil
  }
}
