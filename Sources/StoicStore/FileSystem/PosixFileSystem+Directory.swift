#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PosixFileSystem {
  /// Renames with `rename(2)`, atomically replacing any file at `destination`.
  ///
  /// The new name is durable only after ``syncDirectory(_:)`` on the directories involved.
  /// - Throws: ``StoreError`` with the `rename` errno.
  public func rename(_ source: String, to destination: String) throws(StoreError) {
    try Syscall.run("rename", path: source) { Syscall.rename(source, destination) }
  }

  /// Removes a file with `unlink(2)`.
  ///
  /// - Throws: ``StoreError`` with the `unlink` errno (``StoreError/Code/notFound`` when
  ///   nothing is there; a directory is refused).
  public func remove(_ path: String) throws(StoreError) {
    try Syscall.run("unlink", path: path) { unlink(path) }
  }

  /// The names in `directory` (`opendir`/`readdir`), sorted, without `.` and `..`.
  ///
  /// - Throws: ``StoreError`` with the `opendir`, `readdir` or `closedir` errno.
  public func list(_ directory: String) throws(StoreError) -> [String] {
    guard let stream = try Syscall.pointer("opendir", path: directory, { opendir(directory) })
    else {
      throw StoreError(
        .other, "opendir on \(directory) returned nothing", path: directory, syscall: "opendir")
    }
    // Every name's bytes in one buffer, sorted there (no `String` retained or compared per
    // comparison: a directory of a thousand segments is listed at every open), then made
    // `String`s in order.
    var bytes: [UInt8] = []
    var spans: [Range<Int>] = []
    var ascii = true
    do throws(StoreError) {
      while let entry = try Syscall.pointer("readdir", path: directory, { readdir(stream) }) {
        withUnsafeBytes(of: &entry.pointee.d_name) { field in
          guard let base = field.baseAddress else { return }
          let name = UnsafeRawBufferPointer(
            start: base, count: strnlen(base.assumingMemoryBound(to: CChar.self), field.count))
          // `.` and `..`.
          if name.count <= 2, name.allSatisfy({ $0 == UInt8(ascii: ".") }) { return }
          if !name.isASCII { ascii = false }
          spans.append(bytes.count..<(bytes.count + name.count))
          bytes.append(contentsOf: name)
        }
      }
    } catch {
      _ = Syscall.result { closedir(stream) }
      throw error
    }
    try Syscall.run("closedir", path: directory) { closedir(stream) }
    return bytes.withUnsafeBytes { bytes in
      // ASCII names in `String`'s order are in their bytes' order.
      if ascii { spans.sort { Self.bytesPrecede(bytes[$0], bytes[$1]) } }
      let names = spans.map { String(decoding: bytes[$0], as: UTF8.self) }
      return ascii ? names : names.sorted()
    }
  }

  /// Whether `left` comes before `right`, byte by byte (a prefix first).
  static func bytesPrecede(
    _ left: Slice<UnsafeRawBufferPointer>, _ right: Slice<UnsafeRawBufferPointer>
  ) -> Bool {
    let common = min(left.count, right.count)
    guard common > 0, let leftBase = left.base.baseAddress, let rightBase = right.base.baseAddress
    else { return left.count < right.count }
    let order = memcmp(leftBase + left.startIndex, rightBase + right.startIndex, common)
    return order == 0 ? left.count < right.count : order < 0
  }

  /// The size of the file at `path` (`stat(2)`), or `nil` when nothing is there (`ENOENT`).
  ///
  /// - Throws: ``StoreError`` with any other `stat` errno.
  public func fileSize(_ path: String) throws(StoreError) -> UInt64? {
    var info = stat()
    switch Syscall.result({ stat(path, &info) }) {
    case .success:
      return UInt64(clamping: info.st_size)
    case .failure(.noSuchFile):
      return nil
    case .failure(let error):
      throw StoreError.system("stat", error, path: path)
    }
  }

  /// `lseek(2)`'s `SEEK_DATA` (Glibc's module leaves it out: it is `_GNU_SOURCE`'s).
  #if canImport(Darwin)
    package static let seekData = SEEK_DATA
  #else
    package static let seekData: Int32 = 3
  #endif

  /// The next data at or after `offset`, by `lseek(2)`'s `SEEK_DATA`; `nil` (`ENXIO`) when
  /// only holes follow; `offset` where the file system cannot tell (`EINVAL`).
  public func nextData(_ handle: StoreFileHandle, from offset: UInt64) throws(StoreError)
    -> UInt64?
  {
    guard let start = off_t(exactly: offset) else { return offset }
    switch Syscall.result({ lseek(handle.descriptor, start, Self.seekData) }) {
    case .success(let found):
      return found >= start ? UInt64(found) : offset
    case .failure(let error) where error.rawValue == ENXIO:
      return nil
    case .failure(let error) where error.rawValue == EINVAL:
      return offset
    case .failure(let error):
      throw StoreError.system("lseek", error, path: handle.path)
    }
  }

  /// Whether `path` itself is a symbolic link, by `lstat(2)` (trailing slashes dropped first:
  /// `link/` would name what the link points to).
  public func isSymbolicLink(_ path: String) throws(StoreError) -> Bool {
    var name = Substring(path)
    while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
    var info = stat()
    switch Syscall.result({ lstat(String(name), &info) }) {
    case .success:
      return (info.st_mode & S_IFMT) == S_IFLNK
    case .failure(.noSuchFile):
      return false
    case .failure(let error):
      throw StoreError.system("lstat", error, path: path)
    }
  }

  /// Creates `path` and any missing parents with `mkdir(2)`, each with exactly `permissions`
  /// whatever the umask (`fchmod` through an `O_NOFOLLOW` descriptor after the `mkdir`);
  /// succeeds if it is already a directory, leaving its permissions as they are.
  ///
  /// - Throws: ``StoreError`` with the `mkdir` errno; ``StoreError/Code/alreadyExists`` when
  ///   `path` or a parent exists and is not a directory.
  public func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    let mode = mode_t(permissions.rawValue)
    var target = path
    while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
    guard !target.isEmpty else {
      throw StoreError(.invalidArgument, "cannot create a directory with an empty path")
    }
    switch Syscall.result({ mkdir(target, mode) }) {
    case .success:
      try setDirectoryPermissions(target, permissions)
    case .failure(.fileExists):
      try requireDirectory(target)
    case .failure(.noSuchFile):
      let parent = StorePath.directory(of: target)
      guard parent != target && parent != "." && parent != "/" else {
        throw StoreError.system("mkdir", .noSuchFile, path: target)
      }
      try createDirectory(parent, permissions: permissions)
      switch Syscall.result({ mkdir(target, mode) }) {
      case .success: try setDirectoryPermissions(target, permissions)
      case .failure(.fileExists): try requireDirectory(target)
      case .failure(let error): throw StoreError.system("mkdir", error, path: target)
      }
    case .failure(let error):
      throw StoreError.system("mkdir", error, path: target)
    }
  }

  /// Succeeds if `path` is a directory; otherwise the `EEXIST` of the `mkdir` that found it.
  private func requireDirectory(_ path: String) throws(StoreError) {
    var info = stat()
    try Syscall.run("stat", path: path) { stat(path, &info) }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw StoreError(
        .alreadyExists, "mkdir on \(path) failed: it exists and is not a directory",
        path: path, syscall: "mkdir", errno: .fileExists)
    }
  }

  /// The bytes available to an unprivileged writer on the file system holding `path`:
  /// `statvfs(3)`'s `f_bavail * f_frsize`.
  ///
  /// - Throws: ``StoreError`` with the `statvfs` errno (``StoreError/Code/notFound`` when
  ///   nothing is at `path`).
  public func freeSpace(_ path: String) throws(StoreError) -> UInt64 {
    var info = statvfs()
    try Syscall.run("statvfs", path: path) { statvfs(path, &info) }
    let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(
      by: UInt64(info.f_frsize))
    return overflow ? UInt64.max : bytes
  }

  /// Takes an exclusive lock with `flock(LOCK_EX | LOCK_NB)`, waiting at most a moment.
  ///
  /// An `flock` lock belongs to the open file description, not to the process: two handles
  /// opened separately on the same file conflict even inside one process, which is what makes
  /// it a guard against a second opener anywhere. It is released when the handle is closed (the
  /// store never duplicates descriptors, and `O_CLOEXEC` keeps a spawned program from
  /// inheriting it) or the process ends. The lock is advisory: it stops other lockers, not
  /// readers or writers. On Linux, NFS emulates `flock` with byte-range locks.
  ///
  /// A process that forks while a store is open holds a copy of the descriptor, and so the
  /// lock, until it calls `exec` (which closes it): a store closed and opened again at that
  /// moment would be refused. So a refused lock is tried again every
  /// ``lockRetryInterval`` up to ``lockAttempts`` times (0.2 s in all) before `.locked`.
  ///
  /// - Throws: ``StoreError/Code/locked`` (retry) when another handle or process holds it;
  ///   otherwise ``StoreError`` with the `flock` errno.
  public func lock(_ handle: StoreFileHandle) throws(StoreError) {
    var attempt = 1
    while true {
      switch Syscall.result({ flock(handle.descriptor, LOCK_EX | LOCK_NB) }) {
      case .success:
        return
      case .failure(let error)
      where error == .resourceTemporarilyUnavailable || error.rawValue == EWOULDBLOCK:
        guard attempt >= Self.lockAttempts else {
          attempt += 1
          usleep(Self.lockRetryInterval)
          continue
        }
        throw StoreError(
          .locked,
          "\(handle.path) is locked by another handle or process (flock failed: \(error))",
          path: handle.path, syscall: "flock", errno: error)
      case .failure(let error):
        throw StoreError.system("flock", error, path: handle.path)
      }
    }
  }

  /// How many times ``lock(_:)`` tries a lock that is held before it reports `.locked`.
  public static let lockAttempts = 20
  /// Microseconds between two of ``lock(_:)``'s attempts.
  public static let lockRetryInterval: UInt32 = 10_000
}
