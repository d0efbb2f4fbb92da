extension FileSystem {
  /// Creates `path` and any missing parents, and makes each directory it created durable:
  /// syncs the parent of every level that did not exist, from the top down.
  ///
  /// A `mkdir` changes its parent's names like a create does: it survives a power cut only
  /// once the parent directory is synced. Without that sync a store whose files were all
  /// synced could lose its whole directory. Every store that creates its directory does it
  /// here (the journal, and so the outbox; the settings store).
  ///
  /// A level counts as existing when it can be listed, or when listing it fails for any reason
  /// other than `ENOENT`/`ENOTDIR` (then ``createDirectory(_:permissions:)`` reports what is wrong). When
  /// `path` already exists nothing is created or synced, and no directory above it is opened.
  ///
  /// - Parameters:
  ///   - path: The directory to create.
  ///   - permissions: The bits each directory created gets, exactly, whatever the umask
  ///     (``FilePermissions/privateDirectory``, `0700`, unless given).
  /// - Throws: ``StoreError`` from ``createDirectory(_:permissions:)`` or ``syncDirectory(_:)``.
  public func createDirectoryDurably(
    _ path: String, permissions: FilePermissions = .privateDirectory
  ) throws(StoreError) {
    var missing: [String] = []
    var level = Self.trimmingSlashes(path)
    while level != "." && level != "/" && !level.isEmpty && !directoryExists(level) {
      missing.append(level)
      level = Self.trimmingSlashes(StorePath.directory(of: level))
    }
    guard !missing.isEmpty else { return }
    try createDirectory(path, permissions: permissions)
    for created in missing.reversed() {
      try syncDirectory(StorePath.directory(of: created))
    }
  }

  /// `path` without trailing slashes (`"/"` stays).
  private static func trimmingSlashes(_ path: String) -> String {
    var trimmed = path
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }

  /// Whether something is at `directory`: it can be listed, or listing it fails for a reason
  /// other than a missing path.
  private func directoryExists(_ directory: String) -> Bool {
    do throws(StoreError) {
      _ = try list(directory)
      return true
    } catch {
      return error.code != .notFound
    }
  }
}
