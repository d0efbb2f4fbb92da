import StoicStore

/// One file in a store's directory, as it is on the real disk, and what it is to the store.
public struct StoreFile: Sendable, Hashable {
  /// What the file is to the store.
  public enum Role: String, Sendable, Hashable {
    /// A journal segment (`journal-<first>.log` or `.zst`).
    case segment
    /// The journal's lock file.
    case lock
    /// The journal's checkpoint (low-water mark and snapshot).
    case checkpoint
    /// The current generation of an atomic file.
    case current
    /// The previous generation of an atomic file.
    case previous
    /// Bytes set aside by an earlier recovery (`*.corrupt-*`).
    case quarantined
    /// A stale temporary (`*.tmp`).
    case temporary
    /// One of a telemetry spool's own files (`spool.id`, `drops`) or directories.
    case spoolFile = "spool-file"
    /// Not one of the store's files.
    case other
  }

  /// The file's name in its directory.
  public var name: String
  /// Its full path.
  public var path: String
  /// What `stat` says about it.
  public var status: FileStatus
  /// What it is to the store.
  public var role: Role

  /// The role of `name` in a journal's directory.
  static func journalRole(of name: String) -> Role {
    if JournalFileNames.parseSegment(name) != nil { return .segment }
    if name == JournalFileNames.lock { return .lock }
    if name == JournalFileNames.checkpoint { return .checkpoint }
    if name.contains(".corrupt-") { return .quarantined }
    if name.hasSuffix(JournalFileNames.temporarySuffix) { return .temporary }
    return .other
  }

  /// The role of `name` in a telemetry spool's directory.
  static func spoolRole(of name: String) -> Role {
    if name == "spool.lock" { return .lock }
    if [
      "spool.id", "drops", "logs", "metrics", "summaries", "spans", "span-drops",
    ].contains(name) {
      return .spoolFile
    }
    return journalRole(of: name)
  }

  /// The files of `directory` on the real disk, with their roles, sorted by name; files that
  /// vanish while they are listed are skipped.
  ///
  /// - Throws: `StoreError` from `opendir` or `stat`.
  static func list(_ directory: String, role: (String) -> Role) throws(StoreError) -> [StoreFile] {
    var files: [StoreFile] = []
    for name in try PosixFileSystem().list(directory) {
      let path = StorePath.join(directory, name)
      guard let status = try FileStatus.of(path) else { continue }
      files.append(StoreFile(name: name, path: path, status: status, role: role(name)))
    }
    return files
  }

  /// The notes and warnings every store's files give rise to: quarantined files, stale
  /// temporaries, files that are not the store's, and (with `permissions`) files and
  /// directories the group or others can read.
  static func findings(
    _ files: [StoreFile], directory: (path: String, status: FileStatus)?, permissions: Bool
  ) -> [Finding] {
    var findings: [Finding] = []
    for file in files {
      switch file.role {
      case .quarantined:
        findings.append(
          Finding(
            .note, .quarantined, file: file.path, length: file.status.size,
            "quarantined by an earlier recovery (\(ByteCount.describe(file.status.size))): kept "
              + "for inspection, never deleted by the library; remove it once looked at"))
      case .temporary:
        findings.append(
          Finding(
            .note, .temporary, file: file.path,
            "a stale temporary from an interrupted write; the next open or write removes it"))
      case .other where file.status.kind != .directory:
        findings.append(
          Finding(.note, .unknownFile, file: file.path, "not one of the store's files"))
      default: break
      }
    }
    guard permissions else { return findings }
    if let directory, let access = access(directory.status.permissions) {
      findings.append(
        Finding(
          .warning, .permissions, file: directory.path,
          "the directory is \(access) (\(directory.status.permissionText)); "
            + "\(why(directory.status.permissions)): chmod 700"))
    }
    let exposed = files.filter {
      access($0.status.permissions) != nil && $0.status.kind == .regular
    }
    // Said once for them all, by what the most open of them allows.
    let mode = exposed.reduce(UInt32(0)) { $0 | $1.status.permissions }
    if let first = exposed.first, let access = access(mode) {
      let modes = Set(exposed.map(\.status.permissionText)).sorted().joined(separator: ", ")
      let names =
        exposed.count <= 3
        ? exposed.map(\.name).joined(separator: ", ")
        : "\(exposed.count) of its \(files.count) files"
      findings.append(
        Finding(
          .warning, .permissions, file: exposed.count == 1 ? first.path : directory?.path,
          "\(access) (\(modes)): \(names); \(why(mode)): chmod 600"))
    }
    return findings
  }

  /// Who besides the owner the permission bits `mode` let read or write: `readable by others`,
  /// `writable by the group`, `readable and writable by others`, …; `nil` for a private file.
  private static func access(_ mode: UInt32) -> String? {
    let readers = mode & 0o004 != 0 ? "others" : (mode & 0o040 != 0 ? "the group" : nil)
    let writers = mode & 0o002 != 0 ? "others" : (mode & 0o020 != 0 ? "the group" : nil)
    switch (readers, writers) {
    case (nil, nil): return nil
    case (let readers?, nil): return "readable by \(readers)"
    case (nil, let writers?): return "writable by \(writers)"
    case (let readers?, let writers?):
      return readers == writers
        ? "readable and writable by \(readers)"
        : "readable by \(readers) and writable by \(writers)"
    }
  }

  /// Why `mode` matters: what can be read, and, when others may write, what they can do.
  private static func why(_ mode: UInt32) -> String {
    let read = "telemetry may hold what others should not read"
    guard mode & 0o022 != 0 else { return read }
    return read + ", and whoever may write can replace, forge or remove what is kept"
  }
}
