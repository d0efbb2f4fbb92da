#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PosixFileSystem {
  /// Makes the file's data and size durable.
  ///
  /// Darwin: `fcntl(F_FULLFSYNC)`, which asks the drive to flush its cache (plain `fsync`
  /// there only reaches the drive). If the file system refuses it (`ENOTSUP`, `EOPNOTSUPP`,
  /// `EINVAL`, as some network and FAT volumes do), `fsync` is used and
  /// ``StoreEvents/fullSyncUnavailable`` is emitted, once per file system.
  ///
  /// Linux: `fdatasync(2)`, which makes the data durable together with the metadata needed to
  /// read it back (the file's size and block map, including blocks a mapping's preallocation
  /// turns from reserved to written), and skips what is not (timestamps), sparing a journal
  /// commit when only those changed.
  ///
  /// - Throws: ``StoreError`` with the errno; `EIO` is ``StoreError/Code/io`` and stops: the
  ///   kernel may have dropped the dirty pages, so this handle's unsynced writes must be
  ///   treated as lost and the file reopened ("fsyncgate").
  public func sync(_ handle: StoreFileHandle) throws(StoreError) {
    #if canImport(Darwin)
      try flush(handle.descriptor, path: handle.path)
    #else
      try Syscall.run("fdatasync", path: handle.path) { fdatasync(handle.descriptor) }
    #endif
  }

  /// Makes the directory's entries (creates, renames, removes) durable: opens it
  /// `O_RDONLY | O_DIRECTORY`, flushes it as ``sync(_:)`` does a file (`fsync` on Linux,
  /// `F_FULLFSYNC` on Darwin, so the entry passes the drive's cache too), and closes it.
  ///
  /// - Throws: ``StoreError`` with the `open`, `fsync` (or `fcntl(F_FULLFSYNC)`) or `close`
  ///   errno.
  public func syncDirectory(_ path: String) throws(StoreError) {
    let descriptor = try Syscall.run("open", path: path) {
      Syscall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
    }
    do throws(StoreError) {
      try flush(descriptor, path: path)
    } catch {
      _ = Syscall.result(restartingOnInterrupt: false) { Syscall.close(descriptor) }
      throw error
    }
    try close(StoreFileHandle(descriptor: descriptor, path: path))
  }

  /// The platform's strongest flush of one descriptor.
  func flush(_ descriptor: Int32, path: String) throws(StoreError) {
    #if canImport(Darwin)
      try flushPreferringFullSync(
        path: path,
        fullSync: { fcntl(descriptor, F_FULLFSYNC) },
        fsync: { Darwin.fsync(descriptor) })
    #else
      try Syscall.run("fsync", path: path) { fsync(descriptor) }
    #endif
  }

  /// The errnos with which a file system says it cannot do `F_FULLFSYNC`.
  static let fullSyncRefusals: Set<StoreErrno> = [
    .notSupported, StoreErrno(rawValue: EOPNOTSUPP), .invalidArgument,
  ]

  /// Tries `fullSync`; if the file system refuses it, emits
  /// ``StoreEvents/fullSyncUnavailable`` (the first time only) and uses `fsync` instead.
  ///
  /// The Darwin path of ``sync(_:)``, written over two closures so that the fallback and its
  /// once-only event are tested on every platform.
  func flushPreferringFullSync(
    path: String, fullSync: () -> Int32, fsync: () -> Int32
  ) throws(StoreError) {
    switch Syscall.result(fullSync) {
    case .success:
      return
    case .failure(let error) where Self.fullSyncRefusals.contains(error):
      if fullSyncFallback.raiseFirst() {
        events.emit(
          StoreEvents.fullSyncUnavailable, [("path", path)])
      }
      try Syscall.run("fsync", path: path, fsync)
    case .failure(let error):
      throw StoreError.system("fcntl(F_FULLFSYNC)", error, path: path)
    }
  }
}
