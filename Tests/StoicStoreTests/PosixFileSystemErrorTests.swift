import StoicStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks every part of an error from a failed system call.
private func expectSystemError(
  _ error: StoreError, code: StoreError.Code, errno: StoreErrno, syscall: String, path: String,
  retry: RetryDecision = .stop, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(error.code == code, sourceLocation: sourceLocation)
  #expect(error.errno == errno, sourceLocation: sourceLocation)
  #expect(error.syscall == syscall, sourceLocation: sourceLocation)
  #expect(error.path == path, sourceLocation: sourceLocation)
  #expect(error.retryDecision == retry, sourceLocation: sourceLocation)
  #expect(error.description.contains(syscall), sourceLocation: sourceLocation)
  #expect(error.description.contains(path), sourceLocation: sourceLocation)
}

@Suite("PosixFileSystem: errors carry their code, errno, call, path and retry decision")
struct PosixFileSystemErrorTests {
  let fs = PosixFileSystem()

  @Test("a missing file, an existing one, a directory: open's errors")
  func openErrors() throws {
    try PosixScratchDirectory.with { directory in
      let missing = StorePath.join(directory, "missing")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(missing, .readOnly) },
        code: .notFound, errno: .noSuchFile, syscall: "open", path: missing)
      let deeper = StorePath.join(directory, "no/such/dir/file")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(deeper, .createOrOpen) },
        code: .notFound, errno: .noSuchFile, syscall: "open", path: deeper)
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(directory, .readWrite) },
        code: .invalidArgument, errno: .isDirectory, syscall: "open", path: directory)
      let file = StorePath.join(directory, "file")
      try fs.close(try fs.open(file, .createExclusive))
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(file, .createExclusive) },
        code: .alreadyExists, errno: .fileExists, syscall: "open", path: file)
      let throughFile = StorePath.join(file, "child")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(throughFile, .createOrOpen) },
        code: .notFound, errno: .notDirectory, syscall: "open", path: throughFile)
    }
  }

  @Test("rename, remove, list and fileSize name their call and path")
  func pathErrors() throws {
    try PosixScratchDirectory.with { directory in
      let missing = StorePath.join(directory, "missing")
      expectSystemError(
        try #require(throws: StoreError.self) {
          try fs.rename(missing, to: StorePath.join(directory, "b"))
        },
        code: .notFound, errno: .noSuchFile, syscall: "rename", path: missing)
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.list(missing) },
        code: .notFound, errno: .noSuchFile, syscall: "opendir", path: missing)
      let file = StorePath.join(directory, "file")
      try fs.close(try fs.open(file, .createExclusive))
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.list(file) },
        code: .notFound, errno: .notDirectory, syscall: "opendir", path: file)
      let throughFile = StorePath.join(file, "child")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.fileSize(throughFile) },
        code: .notFound, errno: .notDirectory, syscall: "stat", path: throughFile)
      let subdirectory = StorePath.join(directory, "sub")
      try fs.createDirectory(subdirectory)
      let refused = try #require(throws: StoreError.self) { try fs.remove(subdirectory) }
      // Linux says EISDIR, POSIX (and Darwin) EPERM.
      #expect([StoreErrno.isDirectory, .notPermitted].contains(refused.errno))
      #expect(refused.syscall == "unlink")
      #expect(refused.retryDecision == .stop)
    }
  }

  @Test("a closed descriptor fails every handle call with EBADF naming the call")
  func badDescriptor() throws {
    // -1 is never a valid descriptor, so this cannot touch another test's files.
    let handle = StoreFileHandle(descriptor: -1, path: "/nowhere/closed")
    let calls: [(String, () throws -> Void)] = [
      ("pread", { _ = try fs.read(handle, count: 4, at: 0) }),
      ("pwrite", { try fs.write(handle, [1], at: 0) }),
      ("ftruncate", { try fs.truncate(handle, to: 0) }),
      ("fstat", { _ = try fs.size(handle) }),
      ("fdatasync", { try fs.sync(handle) }),
      ("posix_fallocate", { _ = try fs.map(handle, length: 4096) }),
      ("flock", { try fs.lock(handle) }),
      ("close", { try fs.close(handle) }),
    ]
    for (syscall, call) in calls {
      let error = try #require(throws: StoreError.self) { try call() }
      expectSystemError(
        error, code: .closed, errno: .badFileDescriptor, syscall: syscall, path: handle.path)
    }
  }

  @Test("an offset beyond off_t is refused before any call")
  func offsetTooLarge() throws {
    try PosixScratchDirectory.with { directory in
      let handle = try fs.open(StorePath.join(directory, "f"), .createExclusive)
      defer { try? fs.close(handle) }
      let huge = UInt64(Int64.max)
      let errors = [
        try #require(throws: StoreError.self) { try fs.write(handle, [1, 2], at: huge) },
        try #require(throws: StoreError.self) { try fs.read(handle, count: 2, at: huge + 1) },
        try #require(throws: StoreError.self) { try fs.truncate(handle, to: UInt64.max) },
      ]
      for error in errors {
        #expect(error.code == .invalidArgument)
        #expect(error.retryDecision == .stop)
        #expect(error.path == handle.path)
      }
      #expect(try fs.size(handle) == 0)
    }
  }

  @Test(
    "ENOSPC: filling a 64 KiB tmpfs throws diskFull from pwrite, and the preflight agrees",
    .enabled(if: PosixTmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func noSpace() throws {
    try PosixTmpfs.withMount(options: "size=64k") { directory in
      #expect(try fs.freeSpace(directory) == 64 * 1024)
      try DiskSpace.preflight(
        fs, path: StorePath.join(directory, "fill"), bytesNeeded: 64 * 1024, margin: 0)
      let path = StorePath.join(directory, "fill")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      let bytes = [UInt8](repeating: 0xAB, count: 256 * 1024)
      let error = try #require(throws: StoreError.self) { try fs.write(handle, bytes, at: 0) }
      expectSystemError(error, code: .diskFull, errno: .noSpace, syscall: "pwrite", path: path)
      #expect(error.description.contains("ENOSPC"))
      // The prefix that fitted is in the file, as the protocol says a failed write may leave.
      let kept = try fs.size(handle)
      #expect(kept > 0 && kept < 256 * 1024)
      #expect(try fs.read(handle, count: Int(kept), at: 0) == Array(bytes[0..<Int(kept)]))
      #expect(try fs.freeSpace(directory) == 0)
      let preflight = try #require(throws: StoreError.self) {
        try DiskSpace.preflight(fs, path: path, bytesNeeded: 1, margin: 0)
      }
      #expect(preflight.code == .diskFull)
      #expect(preflight.retryDecision == .stop)
      #expect(preflight.message.contains("needs 1 bytes"))
      #expect(preflight.message.contains("0 available"))
      // The caller's rollback: cut back to the last good end frees the space again.
      try fs.truncate(handle, to: 0)
      #expect(try fs.freeSpace(directory) == 64 * 1024)
    }
  }

  @Test(
    "EROFS: a tmpfs remounted read-only refuses writes, creates, renames and removes",
    .enabled(if: PosixTmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func readOnlyFileSystem() throws {
    try PosixTmpfs.withMount(options: "size=64k") { directory in
      let kept = StorePath.join(directory, "kept")
      let handle = try fs.open(kept, .createExclusive)
      try fs.write(handle, [5, 6, 7], at: 0)
      try fs.close(handle)
      try PosixTmpfs.remount(directory, options: "ro")

      let created = StorePath.join(directory, "new")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(created, .createOrOpen) },
        code: .readOnly, errno: .readOnlyFileSystem, syscall: "open", path: created)
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.open(kept, .readWrite) },
        code: .readOnly, errno: .readOnlyFileSystem, syscall: "open", path: kept)
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.rename(kept, to: created) },
        code: .readOnly, errno: .readOnlyFileSystem, syscall: "rename", path: kept)
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.remove(kept) },
        code: .readOnly, errno: .readOnlyFileSystem, syscall: "unlink", path: kept)
      let subdirectory = StorePath.join(directory, "sub")
      expectSystemError(
        try #require(throws: StoreError.self) { try fs.createDirectory(subdirectory) },
        code: .readOnly, errno: .readOnlyFileSystem, syscall: "mkdir", path: subdirectory)
      // Reading still works.
      #expect(try fs.readWholeFile(kept) == [5, 6, 7])
      #expect(try fs.list(directory) == ["kept"])
    }
  }

  @Test(
    "EACCES: permission checks refuse open, create, mkdir, rename, unlink and opendir",
    .enabled(if: PosixPermissionChecks.areEnforceable, "needs non-root, or root on Linux"))
  func permissionDenied() throws {
    try PosixScratchDirectory.with { directory in
      // Let the unprivileged identity search the scratch directory (mkdtemp makes it 0700).
      #expect(chmod(directory, 0o755) == 0)
      let secret = StorePath.join(directory, "secret")
      try fs.close(try fs.open(secret, .createExclusive))
      #expect(chmod(secret, 0o000) == 0)
      let locked = StorePath.join(directory, "locked")
      try fs.createDirectory(locked)
      let inside = StorePath.join(locked, "inside")
      try fs.close(try fs.open(inside, .createExclusive))
      #expect(chmod(locked, 0o555) == 0)
      let sealed = StorePath.join(directory, "sealed")
      try fs.createDirectory(sealed)
      #expect(chmod(sealed, 0o000) == 0)
      defer {
        _ = chmod(locked, 0o755)
        _ = chmod(sealed, 0o755)
      }

      try PosixPermissionChecks.enforced {
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.open(secret, .readOnly) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "open", path: secret)
        let created = StorePath.join(locked, "created")
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.open(created, .createOrOpen) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "open", path: created)
        let subdirectory = StorePath.join(locked, "sub")
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.createDirectory(subdirectory) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "mkdir",
          path: subdirectory)
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.rename(inside, to: created) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "rename", path: inside)
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.remove(inside) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "unlink", path: inside)
        expectSystemError(
          try #require(throws: StoreError.self) { try fs.list(sealed) },
          code: .permissionDenied, errno: .permissionDenied, syscall: "opendir", path: sealed)
      }
    }
  }
}

/// Makes permission checks apply to the calling thread, so EACCES can be produced as root.
///
/// Root skips file permission checks (`CAP_DAC_OVERRIDE`). On Linux the file-system user id
/// is per thread, and changing it from 0 to another id clears those capabilities from the
/// thread's effective set (capabilities(7)); changing it back restores them. So a synchronous
/// test that switches its own thread to `nobody` sees real EACCES, without affecting the tests
/// running on other threads.
enum PosixPermissionChecks {
  private typealias SetFileSystemUserID = @convention(c) (UInt32) -> Int32

  /// Whether EACCES can be produced: always when not root, and as root where `setfsuid` exists.
  static var areEnforceable: Bool { geteuid() != 0 || setFileSystemUserID != nil }

  /// `setfsuid(2)`, looked up at run time (Glibc's module does not export it).
  private static let setFileSystemUserID: SetFileSystemUserID? = {
    #if os(Linux)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid") else {
        return nil
      }
      return unsafeBitCast(symbol, to: SetFileSystemUserID.self)
    #else
      return nil
    #endif
  }()

  /// Runs `body` on this thread with permission checks enforced.
  static func enforced(_ body: () throws -> Void) throws {
    guard geteuid() == 0, let setFileSystemUserID else { return try body() }
    let nobody: UInt32 = 65_534
    _ = setFileSystemUserID(nobody)
    defer { _ = setFileSystemUserID(0) }
    // setfsuid returns the previous id; asking again confirms the switch happened.
    guard setFileSystemUserID(nobody) == nobody else {
      throw PosixScratchDirectory.SetupError(description: "setfsuid(\(nobody)) did not apply")
    }
    try body()
  }
}
