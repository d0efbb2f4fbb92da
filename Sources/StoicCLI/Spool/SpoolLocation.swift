import StoicStore
import StoicTelemetry

/// A telemetry spool the tool was pointed at (`stoic query`, `stoic tail`): its root, its log
/// journal's directory, and where its segment summaries are kept.
///
/// The path may be a spool's root (holding `logs/`, `spool.lock` or `spool.id`), the `logs`
/// or `spans` directory of one, or any journal's directory (then no summaries are kept).
struct SpoolLocation: Sendable, Hashable {
  /// The path as it was given.
  var given: String
  /// The spool's root, or `nil` for a bare log journal.
  var root: String?
  /// The log journal's directory.
  var logs: String
  /// The signal the path names by itself: ``SignalArgument/traces`` for a spool's `spans/`
  /// directory, ``SignalArgument/logs`` otherwise (`--signal` overrides it).
  var implied = SignalArgument.logs

  /// The span journal's directory: a spool's `spans/`, or the bare journal given.
  var spans: String { root.map { StorePath.join($0, "spans") } ?? logs }

  /// The directory of the spool's segment summaries, or `nil` for a bare log journal.
  var summaries: String? { root.map(SegmentSummaryStore.directory(ofSpool:)) }

  /// Finds the spool at `given`.
  ///
  /// - Throws: ``CommandFailure`` with ``ExitStatus/noStore`` for a path that does not exist
  ///   or holds no spool, ``ExitStatus/unreadable`` (with the system's reason) for one that
  ///   cannot be read, a directory that cannot be listed among them.
  static func locate(_ given: String) throws(CommandFailure) -> SpoolLocation {
    let path: String
    switch StoreLocation.resolve(given) {
    case .resolved(let resolved): path = resolved
    case .failed(let error) where error == .noSuchFile || error == .notDirectory:
      throw CommandFailure(.noStore, "\(given): no such file or directory")
    case .failed(let error):
      throw CommandFailure(.unreadable, "\(given): \(error)")
    }
    let names: [String]
    do throws(StoreError) {
      names = try PosixFileSystem().list(path)
    } catch  where error.errno == .notDirectory {
      throw CommandFailure(.noStore, "\(given): not a telemetry spool (not a directory)")
    } catch {
      throw CommandFailure(.unreadable, "\(given): \(error.message)")
    }
    if isSpoolRoot(names) {
      return SpoolLocation(given: given, root: path, logs: StorePath.join(path, "logs"))
    }
    guard isJournal(names) else {
      throw CommandFailure(
        .noStore,
        "\(given): not a telemetry spool (no logs/, spool.lock or spool.id in it) nor a log "
          + "journal")
    }
    let parent = StorePath.directory(of: path)
    let root = StorePath.name(of: path) == "logs" && isSpoolRoot(parent) ? parent : nil
    if StorePath.name(of: path) == "spans" && isSpoolRoot(parent) {
      return SpoolLocation(
        given: given, root: parent, logs: StorePath.join(parent, "logs"), implied: .traces)
    }
    return SpoolLocation(given: given, root: root, logs: path)
  }

  /// Whether to read this location as the example collector's store: `--as collector`; without
  /// `--as`, a journal outside a spool that ``JournalContent`` tells is one (the rule `inspect`
  /// and `verify` use).
  ///
  /// - Throws: ``UsageError`` for `--as` naming what `query` and `tail` do not read.
  func readsCollector(_ command: ParsedCommand) throws(UsageError) -> Bool {
    switch try CommonOptions.kind(command) {
    case .collector?: return true
    case .spool?, .journal?: return false
    case nil: return root == nil && JournalContent.detect(logs) == .collector
    case let other?:
      throw UsageError(
        "\(command.command) reads a spool, a log journal or a collector's store, not "
          + other.rawValue, command: command.command)
    }
  }

  /// Whether `path` is a spool's root: a directory holding `spool.id` or `spool.lock`, and a
  /// `logs` directory.
  static func isSpoolRoot(_ path: String) -> Bool {
    guard let names = try? PosixFileSystem().list(path) else { return false }
    return isSpoolRoot(names)
  }

  /// Whether a directory holding `names` is a spool's root.
  static func isSpoolRoot(_ names: [String]) -> Bool {
    names.contains("logs") && (names.contains("spool.id") || names.contains("spool.lock"))
  }

  /// Whether a directory holding `names` holds a journal's files.
  static func isJournal(_ names: [String]) -> Bool {
    names.contains {
      $0 == JournalFileNames.lock || $0 == JournalFileNames.checkpoint
        || JournalFileNames.parseSegment($0) != nil
    }
  }
}
