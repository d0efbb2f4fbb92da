extension StoreError {
  /// Creates the error for a failed system call: its ``Code`` and a message chosen for that
  /// call and errno, saying what was being done, what happened and, where there is something to
  /// do, what the user can do (free space, fix a permission, raise a limit, reopen the store).
  ///
  /// The same errno means different things to different calls, as swift-nio's
  /// `FileSystemError+Syscall.swift` spells out: `EBADF` from a sync means the handle was
  /// closed (``Code/closed``), `EINVAL` from `mmap` means the file system cannot map files here
  /// (``Code/unsupported``), `EAGAIN` from `flock` means another holder
  /// (``Code/locked``), `EEXIST` from `mkdir` is an existing directory.
  ///
  /// - Parameters:
  ///   - syscall: The call that failed (`"open"`, `"fdatasync"`, …).
  ///   - errno: What it returned.
  ///   - path: The path it was called on, if any.
  ///   - file: Where the error is raised (`#fileID`).
  ///   - line: The line where it is raised.
  public static func system(
    _ syscall: String,
    _ errno: StoreErrno,
    path: String?,
    file: String = #fileID,
    line: Int = #line
  ) -> StoreError {
    let call = SystemCall(syscall)
    let (code, what) = call.outcome(of: errno)
    let subject = path.map { " '\($0)'" } ?? ""
    var message = "Could not \(call.verb)\(subject): \(what) (\(syscall): \(errno))."
    if let advice = call.advice(for: code) { message += " " + advice }
    return StoreError(
      code, message, path: path, syscall: syscall, errno: errno, file: file, line: line)
  }
}

/// A system call grouped with those whose errors mean the same: the `pwrite` family, the sync
/// family (`fsync`, `fdatasync`, `fcntl(F_FULLFSYNC)`), and so on.
enum SystemCall: Sendable, Hashable {
  case open, close, read, write, sync, truncate, reserve, map, unmap, rename, remove
  case makeDirectory, listDirectory, lock, status, fileSystemStatus, other

  /// The family of the call named `name`.
  init(_ name: String) {
    switch name {
    case "open", "openat", "mkdtemp", "mkstemp": self = .open
    case "close", "closedir": self = .close
    case "read", "pread": self = .read
    case "write", "pwrite": self = .write
    case "fsync", "fdatasync", "fcntl", "F_FULLFSYNC", "msync": self = .sync
    case "ftruncate", "truncate": self = .truncate
    case "posix_fallocate", "fallocate": self = .reserve
    case "mmap": self = .map
    case "munmap", "madvise": self = .unmap
    case "rename", "renameat": self = .rename
    case "unlink", "rmdir", "remove": self = .remove
    case "mkdir": self = .makeDirectory
    case "opendir", "readdir": self = .listDirectory
    case "flock", "fcntl(F_SETLK)": self = .lock
    case "stat", "fstat", "lstat": self = .status
    case "statvfs", "fstatvfs", "statfs": self = .fileSystemStatus
    default: self = .other
    }
  }

  /// What the store was trying to do, as the verb of "Could not … 'path'".
  var verb: String {
    switch self {
    case .open: "open"
    case .close: "close"
    case .read: "read from"
    case .write: "write to"
    case .sync: "make durable (sync)"
    case .truncate: "resize"
    case .reserve: "reserve disk space for"
    case .map: "map"
    case .unmap: "unmap pages of"
    case .rename: "rename"
    case .remove: "remove"
    case .makeDirectory: "create the directory"
    case .listDirectory: "list the directory"
    case .lock: "lock"
    case .status: "get information about"
    case .fileSystemStatus: "measure the free space of"
    case .other: "complete a system call on"
    }
  }

  /// The code for `errno` from this call, and what happened, in a few words.
  func outcome(of errno: StoreErrno) -> (StoreError.Code, String) {
    switch (self, errno) {
    case (_, .badFileDescriptor):
      return (.closed, "the handle was already closed")
    case (.lock, .resourceTemporarilyUnavailable), (.lock, .busy):
      return (.locked, "another handle or process holds the lock")
    case (.map, .noDevice), (.map, .notSupported), (.reserve, .notSupported),
      (.reserve, .noDevice):
      return (.unsupported, "the file system cannot do this for this file")
    case (.map, .invalidArgument):
      return (.invalidArgument, "the length or offset is not one this file can be mapped with")
    case (.sync, .invalidArgument), (.sync, .notSupported):
      return (.unsupported, "the file system does not support this kind of sync")
    case (.sync, .ioError):
      return (.io, "the device reported an I/O error; writes since the last sync may be lost")
    case (.close, .ioError):
      return (.io, "the device reported an I/O error; earlier writes may have failed")
    case (.rename, .crossDevice):
      return (.unsupported, "source and destination are on different file systems")
    case (.rename, .directoryNotEmpty), (.remove, .directoryNotEmpty):
      return (.alreadyExists, "the directory is not empty")
    case (.open, .isDirectory), (.read, .isDirectory), (.write, .isDirectory):
      return (.invalidArgument, "it is a directory")
    case (.truncate, .invalidArgument), (.truncate, .fileTooLarge), (.write, .fileTooLarge),
      (.reserve, .fileTooLarge), (.reserve, .invalidArgument):
      return (.invalidArgument, "the size is beyond what the file system allows")
    case (.read, .invalidArgument), (.write, .invalidArgument):
      return (.invalidArgument, "the offset or size is invalid for this file")
    case (_, .nameTooLong):
      return (.invalidArgument, "the path or one of its names is too long")
    case (_, .tooManySymbolicLinks):
      return (.invalidArgument, "too many symbolic links on the path")
    case (_, .noSpace):
      return (.diskFull, "no space is left on the device")
    case (_, .quotaExceeded):
      return (.quotaExceeded, "the user's disk quota is exhausted")
    case (_, .readOnlyFileSystem):
      return (.readOnly, "the file system is mounted read-only")
    case (_, .permissionDenied), (_, .notPermitted):
      return (.permissionDenied, "permission denied")
    case (_, .noSuchFile):
      return (.notFound, "it, or a directory on its path, does not exist")
    case (_, .notDirectory):
      return (.notFound, "a component of the path is not a directory")
    case (_, .fileExists):
      return (.alreadyExists, "it already exists")
    case (_, .ioError):
      return (.io, "the device reported an I/O error")
    case (_, .interrupted):
      return (.interrupted, "the call was interrupted")
    case (_, .tooManyOpenFiles):
      return (.temporarilyUnavailable, "the process has too many open files")
    case (_, .tooManyOpenFilesInSystem):
      return (.temporarilyUnavailable, "the system has too many open files")
    case (_, .noMemory):
      return (.temporarilyUnavailable, "the kernel is out of memory")
    case (_, .resourceTemporarilyUnavailable), (_, .busy), (_, .textFileBusy):
      return (.temporarilyUnavailable, "the resource is busy")
    case (_, .invalidArgument):
      return (.invalidArgument, "the kernel refused an argument")
    case (_, .notSupported):
      return (.unsupported, "the operation is not supported here")
    default:
      return (.other, "the kernel reported an error")
    }
  }

  /// What the user can do about a failure of this code, where there is something to do.
  func advice(for code: StoreError.Code) -> String? {
    switch code {
    case .diskFull: "Free space on this volume (or choose another directory), then try again."
    case .quotaExceeded: "Free space or raise the quota, then try again."
    case .readOnly: "Remount the file system read-write or choose another directory."
    case .permissionDenied:
      "Check the owner and mode of the path and of each directory above it."
    case .io:
      self == .sync
        ? "Check the device (the kernel log says more); reopen the store to see what survived."
        : "Check the device (the kernel log says more)."
    case .temporarilyUnavailable, .interrupted: "This may pass; try again."
    case .locked: "Stop the other process, or wait for it to close the store."
    case .closed: "This is a defect of the caller: the handle was used after its close."
    default: nil
    }
  }
}
