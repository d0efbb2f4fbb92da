#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ``FileSystem`` of a real disk, over the POSIX calls of Glibc (Linux) or Darwin.
///
/// - Every call goes through one wrapper that restarts `EINTR` and turns a failure into
///   ``StoreError/system(_:_:path:file:line:)``: the error names the call (`"pwrite"`), the
///   ``StoreErrno`` and the path, and classifies itself with ``StoreError/retryDecision``.
/// - I/O is positional (`pread`/`pwrite`), with short reads and writes continued until the
///   buffer is done or the file ends. Files are opened `O_CLOEXEC`; ``OpenMode/createExclusive``
///   is `O_CREAT | O_EXCL`.
/// - What it creates gets exactly the permissions asked for, whatever the umask (`fchmod`
///   after the create): files `0600` and directories `0700` unless a caller asks otherwise
///   (see ``FilePermissions``).
/// - ``sync(_:)`` is `fcntl(F_FULLFSYNC)` on Darwin, which is what flushes the drive's own
///   cache there; where the file system refuses it (`ENOTSUP`, `EINVAL`) it falls back to
///   `fsync` and emits ``StoreEvents/fullSyncUnavailable`` once per file system value (and its
///   copies). On Linux it is `fdatasync` (data, size and block map; not timestamps), and
///   ``syncDirectory(_:)`` is `fsync`. An `EIO` from the flush is thrown as
///   ``StoreError/Code/io``, which stops: the kernel may have dropped the dirty pages.
/// - ``lock(_:)`` is `flock(LOCK_EX | LOCK_NB)`. See its documentation for the scope.
///
/// A value type holding only the event sink and a shared flag; copies are the same file system,
/// and it can be used from any thread (each call is one or a few blocking system calls).
public struct PosixFileSystem: FileSystem {
  /// Where ``StoreEvents/fullSyncUnavailable`` is reported.
  let events: EventSink
  /// Whether that event was already emitted, shared by the copies of this value.
  let fullSyncFallback: FullSyncFallbackFlag

  /// The largest count passed to one `pread` or `pwrite`; longer buffers take several calls
  /// (Darwin refuses counts above `INT_MAX`, Linux shortens them anyway).
  static let maximumTransfer = 1 << 30

  /// Creates the real file system.
  ///
  /// - Parameter events: Receives ``StoreEvents/fullSyncUnavailable`` when `F_FULLFSYNC` is
  ///   refused and `fsync` is used instead (on Darwin only; Linux has no `F_FULLFSYNC`).
  public init(events: EventSink = .discard) {
    self.events = events
    self.fullSyncFallback = FullSyncFallbackFlag()
  }

  /// Opens `path` with `open(2)`, `O_CLOEXEC`; a file it creates gets exactly `permissions`.
  ///
  /// A create is always `O_CREAT | O_EXCL` followed by `fchmod`, so the umask changes nothing;
  /// ``OpenMode/createOrOpen`` opens an existing file without `O_CREAT`, leaving its bits as
  /// they are.
  ///
  /// - Throws: ``StoreError`` with the `open` errno: ``StoreError/Code/alreadyExists`` for an
  ///   exclusive create of an existing file, ``StoreError/Code/notFound``,
  ///   ``StoreError/Code/permissionDenied``, ``StoreError/Code/readOnly``, …; or the `fchmod`
  ///   errno when the new file's permissions cannot be set (it is removed again).
  public func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    switch mode {
    case .readOnly, .readWrite:
      let flags = mode.posixFlags | O_CLOEXEC
      let descriptor = try Syscall.run("open", path: path) { Syscall.open(path, flags, 0) }
      return StoreFileHandle(descriptor: descriptor, path: path)
    case .createOrOpen, .createExclusive:
      return try createFile(path, exclusive: mode == .createExclusive, permissions: permissions)
    }
  }

  /// Closes the descriptor with `close(2)`. Closing does not sync, and releases the handle's
  /// lock.
  ///
  /// `close` is not restarted on `EINTR`: the descriptor is released whatever it reports, so
  /// `EINTR` counts as closed.
  /// - Throws: ``StoreError`` with the `close` errno (`EBADF` for a handle already closed,
  ///   `EIO` from a file system that reports write-back errors at close).
  public func close(_ handle: StoreFileHandle) throws(StoreError) {
    switch Syscall.result(restartingOnInterrupt: false, { Syscall.close(handle.descriptor) }) {
    case .success, .failure(.interrupted):
      return
    case .failure(let error):
      throw StoreError.system("close", error, path: handle.path)
    }
  }

  /// Reads with `pread(2)` until `buffer` is full or the file ends.
  ///
  /// - Returns: The bytes read; fewer than `buffer.count` only at the end of the file.
  /// - Throws: ``StoreError`` with the `pread` errno, or ``StoreError/Code/invalidArgument``
  ///   for an offset beyond what `off_t` holds.
  public func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  ) throws(StoreError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    var done = 0
    while done < buffer.count {
      let position = try Self.fileOffset(offset, plus: done, path: handle.path)
      let count = min(buffer.count - done, Self.maximumTransfer)
      let got = try Syscall.run("pread", path: handle.path) {
        pread(handle.descriptor, base + done, count, position)
      }
      if got == 0 { break }
      done += got
    }
    return done
  }

  /// Writes all of `bytes` with `pwrite(2)`, continuing short writes.
  ///
  /// - Throws: ``StoreError`` with the `pwrite` errno (``StoreError/Code/diskFull`` for
  ///   `ENOSPC`, ``StoreError/Code/quotaExceeded`` for `EDQUOT`, …). A prefix of the bytes may
  ///   be in the file when it throws.
  public func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    var done = 0
    while done < bytes.count {
      let position = try Self.fileOffset(offset, plus: done, path: handle.path)
      let count = min(bytes.count - done, Self.maximumTransfer)
      let put = try Syscall.run("pwrite", path: handle.path) {
        pwrite(handle.descriptor, base + done, count, position)
      }
      guard put > 0 else {
        throw StoreError(
          .io, "pwrite on \(handle.path) wrote nothing at offset \(position)",
          path: handle.path, syscall: "pwrite")
      }
      done += put
    }
  }

  /// Sets the file's size with `ftruncate(2)`, cutting it or extending it with zeros.
  ///
  /// - Throws: ``StoreError`` with the `ftruncate` errno.
  public func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    let length = try Self.fileOffset(size, plus: 0, path: handle.path)
    try Syscall.run("ftruncate", path: handle.path) { ftruncate(handle.descriptor, length) }
  }

  /// The size of the open file, from `fstat(2)`.
  ///
  /// - Throws: ``StoreError`` with the `fstat` errno.
  public func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 {
    var info = stat()
    try Syscall.run("fstat", path: handle.path) { fstat(handle.descriptor, &info) }
    return UInt64(clamping: info.st_size)
  }

  /// `offset + plus` as an `off_t`, or ``StoreError/Code/invalidArgument`` if it does not fit.
  static func fileOffset(_ offset: UInt64, plus: Int, path: String) throws(StoreError) -> off_t {
    let (sum, overflow) = offset.addingReportingOverflow(UInt64(plus))
    guard !overflow, sum <= UInt64(off_t.max) else {
      throw StoreError(
        .invalidArgument, "offset \(offset) + \(plus) is beyond the largest file offset",
        path: path)
    }
    return off_t(sum)
  }
}

extension OpenMode {
  /// The `open(2)` access and creation flags for the mode.
  var posixFlags: Int32 {
    switch self {
    case .readOnly: O_RDONLY
    case .readWrite: O_RDWR
    case .createOrOpen: O_RDWR | O_CREAT
    case .createExclusive: O_RDWR | O_CREAT | O_EXCL
    }
  }
}
