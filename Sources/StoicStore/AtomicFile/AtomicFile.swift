/// A small file replaced whole and atomically: after a crash at any point, a reader finds the
/// old contents or the new, never a mix and never nothing.
///
/// ## Write
/// 1. Preflight: too little free space throws ``StoreError/Code/diskFull`` before anything on
///    disk is touched.
/// 2. A stale `<path>.tmp` from an interrupted write is removed (`store.temp_removed`).
/// 3. `<path>.tmp` is created exclusively with ``Options/permissions`` (`0600` by default,
///    whatever the umask), the bytes (inside the `STAF` envelope when ``Options/envelope`` is
///    on) are written and fully synced.
/// 4. When ``Options/keepPrevious`` is on and the current file is intact, it is renamed to
///    `<path>.previous`. A corrupt current file is quarantined instead, so garbage never
///    displaces a good previous generation.
/// 5. `<path>.tmp` is renamed over `<path>`, and the directory is synced.
///
/// ## Read
/// The current file, then (when kept) `<path>.previous`. A file that fails the envelope, the
/// size limit or the caller's `validate` closure is renamed to `<path>.corrupt-N`
/// (`store.corrupt_quarantined`), never deleted; the newest ``Options/quarantineLimit`` are
/// kept. When nothing usable is found but something was corrupt, ``read(validate:)`` throws
/// ``StoreError/Code/corrupt`` once; since the corrupt files are then set aside, the next read
/// returns `nil`.
///
/// One writer per path: concurrent writers to the same path from several threads or processes
/// are not coordinated.
public struct AtomicFile: Sendable {
  /// The file's path.
  public let path: String
  /// The file system it lives on.
  public let fileSystem: any FileSystem
  /// How it is written and read.
  public let options: Options
  /// Where its events go.
  public let events: EventSink

  /// Describes an atomic file; nothing is touched on disk until ``write(_:validate:)`` or
  /// ``read(validate:)``.
  public init(
    path: String, fileSystem: any FileSystem, options: Options = Options(),
    events: EventSink = .discard
  ) {
    self.path = path
    self.fileSystem = fileSystem
    self.options = options
    self.events = events
  }

  /// `<path>.tmp`, where a write is staged.
  public var temporaryPath: String { path + ".tmp" }
  /// `<path>.previous`, the previous generation.
  public var previousPath: String { path + ".previous" }

  /// Replaces the file's contents atomically and durably.
  ///
  /// When this returns, the new bytes are durable (the data is synced, the rename is synced).
  /// A missing directory is created first, with every missing level above it, each made
  /// durable (private, unless ``Options/permissions`` lets others read the file).
  /// If it throws, the file holds its old contents or, if the failure came after the rename,
  /// possibly the new; never a mix.
  ///
  /// - Parameters:
  ///   - bytes: The new contents.
  ///   - validate: Decides whether the current file is intact before it becomes the previous
  ///     generation (used together with the envelope check); a current file that fails is
  ///     quarantined instead.
  /// - Throws: ``StoreError``: ``StoreError/Code/diskFull`` from the preflight, or the failing
  ///   system call's error.
  public func write(_ bytes: [UInt8], validate: (([UInt8]) -> Bool)? = nil) throws(StoreError) {
    let stored = options.envelope ? AtomicFile.envelope(bytes) : bytes
    let directory = StorePath.directory(of: path)
    if try !fileSystem.exists(directory) {
      // The first write makes the directory, and every missing level above it, durably.
      try fileSystem.createDirectoryDurably(
        directory, permissions: options.permissions.forDirectory)
    }
    try DiskSpace.preflight(
      fileSystem, path: directory, bytesNeeded: UInt64(stored.count),
      margin: options.preflightMargin)

    if try fileSystem.exists(temporaryPath) {
      try fileSystem.remove(temporaryPath)
      events.emit(
        StoreEvents.tempRemoved, [("path", temporaryPath)])
    }
    try writeSynced(stored, to: temporaryPath)

    if try fileSystem.exists(path) {
      // Without an envelope or a validate closure there is nothing to check the current file
      // against, so it is not read.
      let checkable = options.envelope || validate != nil
      if checkable, case .unusable(let reason) = try inspect(path, validate: validate) {
        try quarantine(path, reason: reason)
      } else if options.keepPrevious {
        try fileSystem.rename(path, to: previousPath)
      }
    }
    try fileSystem.rename(temporaryPath, to: path)
    try fileSystem.syncDirectory(StorePath.directory(of: path))
  }

  /// Reads the file: the current generation, or the previous one when the current is missing
  /// or unusable.
  ///
  /// Corrupt files found on the way are quarantined as `<path>.corrupt-N` and reported.
  ///
  /// - Parameter validate: An extra check of the payload (for example that it parses); a file
  ///   that fails it is treated as corrupt.
  /// - Returns: The payload and the generation it came from, or `nil` when there is no file.
  /// - Throws: ``StoreError/Code/corrupt`` when nothing usable was found but something was
  ///   corrupt (once: the next read returns `nil`), or the failing system call's error (an
  ///   `EIO` on read is not corruption and quarantines nothing).
  public func read(validate: (([UInt8]) -> Bool)? = nil) throws(StoreError) -> ReadResult? {
    var reasons: [String] = []
    switch try inspect(path, validate: validate) {
    case .usable(let bytes): return ReadResult(bytes: bytes, source: .current)
    case .unusable(let reason):
      try quarantine(path, reason: reason)
      reasons.append("\(path): \(reason)")
    case .missing: break
    }
    if options.keepPrevious {
      switch try inspect(previousPath, validate: validate) {
      case .usable(let bytes):
        events.emit(
          StoreEvents.recoveredPrevious,
          [("path", path), ("reason", reasons.first ?? "current file missing")])
        return ReadResult(bytes: bytes, source: .previous)
      case .unusable(let reason):
        try quarantine(previousPath, reason: reason)
        reasons.append("\(previousPath): \(reason)")
      case .missing: break
      }
    }
    guard reasons.isEmpty else {
      throw StoreError(
        .corrupt,
        "no usable generation; quarantined \(reasons.joined(separator: "; "))", path: path)
    }
    return nil
  }

  /// Creates `target` exclusively, writes `bytes`, syncs and closes it. On failure the partial
  /// file is removed (best effort) so the next write starts clean.
  private func writeSynced(_ bytes: [UInt8], to target: String) throws(StoreError) {
    let handle = try fileSystem.open(
      target, .createExclusive, permissions: options.permissions)
    do throws(StoreError) {
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.sync(handle)
      try fileSystem.close(handle)
    } catch {
      try? fileSystem.close(handle)
      try? fileSystem.remove(target)
      throw error
    }
  }
}
