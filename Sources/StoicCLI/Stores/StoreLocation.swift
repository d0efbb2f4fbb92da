import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store the tool was pointed at: where it is and what kind it is.
///
/// A directory holding `logs/` beside `spool.id` or `spool.lock` is a telemetry spool. A
/// directory holding a journal's files (`journal.lock`, `journal.checkpoint`,
/// `journal-<first>.log` or `.zst`) is a journal; it is taken for the example collector's
/// store when its first record is a collector entry, or for an outbox when its records are
/// outbox records (decided after reading it, unless `--as` says). A regular file in the
/// `STAF` envelope, or one with a `<name>.previous` or `<name>.tmp` beside it, is an atomic
/// file (a settings file). Anything else is not a Stoic store.
public struct StoreLocation: Sendable, Hashable {
  /// The store's path, resolved (`realpath`): absolute, without symbolic links.
  public var path: String
  /// The path as it was given.
  public var given: String
  /// What it is (``StoreKind/journal`` until reading tells an outbox or a collector's store
  /// apart).
  public var kind: StoreKind
  /// Whether `--as` chose the kind.
  public var forced: Bool

  /// Finds what is at `given`.
  ///
  /// - Parameters:
  ///   - given: The path as the user gave it.
  ///   - forced: The kind `--as` names, if any.
  /// - Throws: ``CommandFailure`` with ``ExitStatus/noStore`` when nothing is there or it is
  ///   not a Stoic store (or not of the kind forced), ``ExitStatus/unreadable`` when it cannot
  ///   be read.
  public static func locate(_ given: String, as forced: StoreKind? = nil) throws(CommandFailure)
    -> StoreLocation
  {
    let path: String
    switch resolve(given) {
    case .resolved(let resolved): path = resolved
    case .failed(let error) where error == .noSuchFile || error == .notDirectory:
      // An atomic file whose current generation is missing is still read from `.previous`.
      if case .resolved(let directory) = resolve(StorePath.directory(of: given)),
        (try? FileStatus.of(StorePath.join(directory, StorePath.name(of: given)) + ".previous"))
          != nil,
        forced == nil || forced == .atomicFile
      {
        return StoreLocation(
          path: StorePath.join(directory, StorePath.name(of: given)), given: given,
          kind: .atomicFile,
          forced: forced != nil)
      }
      throw CommandFailure(.noStore, "\(given): no such file or directory")
    case .failed(let error):
      throw CommandFailure(.unreadable, "\(given): \(error)")
    }
    let found: FileStatus?
    do throws(StoreError) {
      found = try FileStatus.of(path)
    } catch {
      throw CommandFailure(.unreadable, "\(given): \(error.message)")
    }
    guard let status = found else {
      throw CommandFailure(.noStore, "\(given): no such file or directory")
    }
    switch status.kind {
    case .directory:
      return try directory(path, given: given, forced: forced)
    case .regular:
      return try file(path, given: given, forced: forced)
    case .other:
      throw CommandFailure(.noStore, "\(given): not a Stoic store (not a file or a directory)")
    }
  }

  private static func directory(_ path: String, given: String, forced: StoreKind?)
    throws(CommandFailure) -> StoreLocation
  {
    let names: [String]
    do throws(StoreError) {
      names = try PosixFileSystem().list(path)
    } catch {
      throw CommandFailure(.unreadable, "\(given): \(error.message)")
    }
    let isJournal = names.contains {
      $0 == JournalFileNames.lock || $0 == JournalFileNames.checkpoint
        || JournalFileNames.parseSegment($0) != nil
    }
    if forced == .atomicFile {
      throw CommandFailure(.noStore, "\(given): is a directory, not an atomic file")
    }
    if forced == .spool || (forced == nil && SpoolLocation.isSpoolRoot(path)) {
      guard SpoolLocation.isSpoolRoot(path) else {
        throw CommandFailure(
          .noStore, "\(given): not a telemetry spool (no logs/ beside spool.id or spool.lock)")
      }
      return StoreLocation(path: path, given: given, kind: .spool, forced: forced != nil)
    }
    guard isJournal else {
      throw CommandFailure(
        .noStore,
        "\(given): not a Stoic store (no journal.lock, journal.checkpoint or journal segment in it)"
      )
    }
    return StoreLocation(path: path, given: given, kind: forced ?? .journal, forced: forced != nil)
  }

  private static func file(_ path: String, given: String, forced: StoreKind?)
    throws(CommandFailure) -> StoreLocation
  {
    let name = StorePath.name(of: path)
    let parent = StorePath.directory(of: path)
    if let forced, forced != .atomicFile {
      throw CommandFailure(.noStore, "\(given): is a file, not a \(forced.rawValue) directory")
    }
    let magic = LockHolder.readSmallFile(path).map { $0.utf8.prefix(4).elementsEqual("STAF".utf8) }
    let siblings = [".previous", ".tmp"].contains {
      (try? FileStatus.of(path + $0)) != nil
    }
    if forced == .atomicFile || magic == true || siblings {
      return StoreLocation(path: path, given: given, kind: .atomicFile, forced: forced != nil)
    }
    if name == JournalFileNames.lock || name == JournalFileNames.checkpoint
      || JournalFileNames.parseSegment(name) != nil
    {
      throw CommandFailure(
        .noStore, "\(given): is a file of the journal in \(parent); give the directory")
    }
    throw CommandFailure(
      .noStore,
      "\(given): not a Stoic store (no STAF envelope; --as atomic-file reads it as one)")
  }

  /// What `realpath(3)` made of a path.
  enum Resolution {
    /// The absolute path without symbolic links.
    case resolved(String)
    /// The errno it failed with.
    case failed(StoreErrno)
  }

  /// `realpath(3)` of `path`, or its errno.
  static func resolve(_ path: String) -> Resolution {
    guard let resolved = realpath(path, nil) else { return .failed(StoreErrno(rawValue: errno)) }
    defer { free(resolved) }
    return .resolved(String(cString: resolved))
  }
}

/// The kinds of store the tool reads. Each names itself in `--as KIND` and in the `kind` field
/// of `--json` output.
public enum StoreKind: String, Sendable, Hashable, CaseIterable {
  /// A `Journal`'s directory.
  case journal
  /// An `Outbox`'s directory (a journal of outbox records).
  case outbox
  /// An `AtomicFile` (a settings file, or any small file kept in the `STAF` envelope).
  case atomicFile = "atomic-file"
  /// A telemetry spool's directory (`spool.id`, `spool.lock`, `drops`, a log journal in
  /// `logs/`, metrics in `metrics/`).
  case spool
  /// The example collector's `--data` directory (a journal of collector entries: stored
  /// batches, duplicates answered from them, key conflicts).
  case collector

  /// The kind named `text` in `--as` (`settings` and `atomic` are taken for `atomic-file`).
  public init?(argument text: String) {
    switch text {
    case "settings", "atomic": self = .atomicFile
    default: self.init(rawValue: text)
    }
  }

  /// Whether the store is a directory (rather than a file).
  public var isDirectory: Bool { self != .atomicFile }
}
