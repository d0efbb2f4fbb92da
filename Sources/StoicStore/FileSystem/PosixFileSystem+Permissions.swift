#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PosixFileSystem {
  /// How many times ``createFile(_:exclusive:permissions:)`` tries again when the file it found
  /// was removed before it could open it.
  static let createAttempts = 8

  /// Creates `path` with exactly `permissions`, or, unless `exclusive`, opens the file already
  /// there (whose permissions stay as they are).
  ///
  /// The create is always `O_CREAT | O_EXCL`, so the file is known to be new, and its bits are
  /// then set with `fchmod`: the umask can only take bits away from `open`'s mode, and one
  /// with owner bits in it (`0277`) would leave a file its owner cannot reopen. When the file
  /// exists and `exclusive` is off, it is opened without `O_CREAT`; if it disappears in between,
  /// the create is tried again.
  ///
  /// - Throws: ``StoreError`` with the `open` errno, or the `fchmod` errno (the new file is
  ///   then removed again).
  func createFile(_ path: String, exclusive: Bool, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    let mode = mode_t(permissions.rawValue)
    var lastError = StoreErrno.noSuchFile
    for _ in 0..<Self.createAttempts {
      switch Syscall.result({ Syscall.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode) }) {
      case .success(let descriptor):
        do throws(StoreError) {
          try setPermissions(descriptor, permissions, path: path)
        } catch {
          _ = Syscall.result(restartingOnInterrupt: false) { Syscall.close(descriptor) }
          _ = Syscall.result { unlink(path) }
          throw error
        }
        return StoreFileHandle(descriptor: descriptor, path: path)
      case .failure(.fileExists) where !exclusive:
        switch Syscall.result({ Syscall.open(path, O_RDWR | O_CLOEXEC, 0) }) {
        case .success(let descriptor):
          return StoreFileHandle(descriptor: descriptor, path: path)
        case .failure(.noSuchFile):
          lastError = .noSuchFile
          continue
        case .failure(let error):
          throw StoreError.system("open", error, path: path)
        }
      case .failure(let error):
        throw StoreError.system("open", error, path: path)
      }
    }
    throw StoreError.system("open", lastError, path: path)
  }

  /// Gives the directory `path`, just created by `mkdir`, exactly `permissions`: opened
  /// `O_DIRECTORY | O_NOFOLLOW` (so a symbolic link put in its place is refused, not
  /// followed), `fchmod`, closed. When that fails the directory is removed again, so a later
  /// call creates it anew rather than finding it with the umask's bits.
  ///
  /// - Throws: ``StoreError`` with the `open`, `fchmod` or `close` errno.
  func setDirectoryPermissions(_ path: String, _ permissions: FilePermissions)
    throws(StoreError)
  {
    do throws(StoreError) {
      let descriptor = try Syscall.run("open", path: path) {
        Syscall.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
      }
      do throws(StoreError) {
        try setPermissions(descriptor, permissions, path: path)
      } catch {
        _ = Syscall.result(restartingOnInterrupt: false) { Syscall.close(descriptor) }
        throw error
      }
      try close(StoreFileHandle(descriptor: descriptor, path: path))
    } catch {
      _ = Syscall.result { rmdir(path) }
      throw error
    }
  }

  /// `fchmod(descriptor, permissions)`; see ``setPermissions(_:_:path:change:)``.
  func setPermissions(_ descriptor: Int32, _ permissions: FilePermissions, path: String)
    throws(StoreError)
  {
    try setPermissions(descriptor, permissions, path: path) {
      fchmod(descriptor, mode_t(permissions.rawValue))
    }
  }

  /// The errnos with which a file system says it cannot store permission bits.
  static let permissionRefusals: Set<StoreErrno> = [
    .notPermitted, .notSupported, StoreErrno(rawValue: EOPNOTSUPP),
  ]

  /// Sets the permissions of the open file `descriptor` with `change` (an `fchmod`).
  ///
  /// A file system that cannot store permission bits (FAT, some network and FUSE mounts)
  /// refuses with `EPERM` or `ENOTSUP`; that is accepted when the bits the file already shows
  /// (`fstat`) grant nothing beyond `permissions`, since the point is that nobody else gets
  /// access. Written over a closure so that this is tested where every file system stores
  /// permissions.
  ///
  /// - Throws: ``StoreError`` with the `fchmod` errno.
  func setPermissions(
    _ descriptor: Int32, _ permissions: FilePermissions, path: String, change: () -> Int32
  ) throws(StoreError) {
    let failure: StoreErrno
    switch Syscall.result(change) {
    case .success: return
    case .failure(let error): failure = error
    }
    var info = stat()
    if Self.permissionRefusals.contains(failure),
      case .success = Syscall.result({ fstat(descriptor, &info) }),
      UInt16(truncatingIfNeeded: info.st_mode) & 0o777 & ~permissions.rawValue == 0
    {
      return
    }
    throw StoreError.system("fchmod", failure, path: path)
  }
}
