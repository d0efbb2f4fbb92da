import StoicStore

/// What the library finds in an atomic file (a settings file): the tool runs `AtomicFile`'s
/// own read over an ``OverlayFileSystem``, once for each generation on its own (so a damaged
/// previous generation is found even when the current one is good) and once as an app reads
/// it (current, then previous), and reports every generation that fails its envelope (magic,
/// version, length, checksum) or the size limit.
struct AtomicFileExamination {
  /// One generation on disk.
  struct Generation {
    /// The file.
    var file: StoreFile
    /// Why the library cannot use it, or `nil` when it can.
    var problem: String?
    /// Its payload's size, when usable.
    var payloadBytes: Int?
  }

  /// The file's path.
  let path: String
  /// The generations present: current, then previous.
  var generations: [Generation] = []
  /// The file's other files: quarantined copies and a stale temporary.
  var files: [StoreFile] = []
  /// Where a read by the library comes from: the current file, the previous generation, or
  /// nowhere (`nil`).
  var readSource: AtomicFile.Source?
  /// What was found.
  var findings: [Finding] = []
  /// An error that kept the tool from reading (not damage).
  var failure: StoreError?

  /// Examines the atomic file at `path`.
  static func run(path: String) -> AtomicFileExamination {
    var examination = AtomicFileExamination(path: path)
    do throws(StoreError) {
      try examination.examine()
    } catch {
      examination.failure = error
    }
    return examination
  }

  private mutating func examine() throws(StoreError) {
    let directory = StorePath.directory(of: path)
    let name = StorePath.name(of: path)
    let siblings = try StoreFile.list(directory) { other in
      if other == name { return .current }
      if other == name + ".previous" { return .previous }
      if other == name + ".tmp" { return .temporary }
      if other.hasPrefix(name + ".corrupt-") { return .quarantined }
      return .other
    }.filter { $0.role != .other }
    files = siblings.filter { $0.role == .quarantined || $0.role == .temporary }
    for file in siblings where file.role == .current || file.role == .previous {
      let log = EventLog()
      let single = AtomicFile(
        path: file.path, fileSystem: OverlayFileSystem(),
        options: AtomicFile.Options(keepPrevious: false), events: log.sink)
      var generation = Generation(file: file)
      do throws(StoreError) {
        generation.payloadBytes = try single.read()?.bytes.count
      } catch {
        guard error.code == .corrupt else { throw error }
        let reason = log.named(StoreEvents.corruptQuarantined).first?["reason"] ?? error.message
        generation.problem = reason
        findings.append(
          Finding(
            .damage, .damage, file: file.path, length: file.status.size,
            "the \(file.role == .current ? "current" : "previous") generation is unusable: "
              + "\(reason); the library quarantines it when it reads"))
      }
      generations.append(generation)
    }
    do throws(StoreError) {
      readSource = try AtomicFile(path: path, fileSystem: OverlayFileSystem()).read()?.source
    } catch {
      guard error.code == .corrupt else { throw error }
      readSource = nil
    }
    findings += StoreFile.findings(files, directory: nil, permissions: false)
  }
}
