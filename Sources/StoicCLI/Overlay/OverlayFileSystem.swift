public import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A copy-on-write `FileSystem` over the real disk that never writes to it: reads come from
/// the real files, and every change (write, truncate, create, rename, remove, new directory)
/// is kept in memory, where later reads through the overlay see it.
///
/// The tool runs the library's own open, recovery and reads (`Journal`, `Outbox`,
/// `AtomicFile`) over an overlay, so it finds exactly what the library finds, and it can say
/// what the library would change (``changes``) without changing a byte:
///
/// - A real directory is listed once, when first listed, and every file in it is opened
///   read-only then and kept open: the directory is seen as it was at that moment even while
///   another process appends, rolls, compresses and removes segments (a file removed since
///   still reads as it was). Each file keeps the size it had when opened (one another process
///   cuts reads zeros past its new end). A file outside a listed directory is looked at when
///   its name is first used.
/// - ``lock(_:)`` succeeds without locking: a store held by another process is read as it is.
/// - ``sync(_:)`` and ``syncDirectory(_:)`` do nothing; ``freeSpace(_:)`` is 1 TiB.
/// - A real file is opened read-only, only while the overlay has a handle on it.
///
/// Thread-safe: the state lives behind a `Mutex` (the journal's readers decode on a second
/// thread).
public final class OverlayFileSystem: FileSystem, Sendable {
  let state = SleepingLock(OverlayState())

  /// An overlay over the real disk with nothing changed yet.
  public init() {
    _ = Self.descriptorLimitRaised
  }

  /// A listed directory keeps a descriptor open per file: the soft limit on open files is
  /// raised to the hard one, once per process.
  private static let descriptorLimitRaised: Bool = {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return false }
    limit.rlim_cur = limit.rlim_max
    return setrlimit(resource, &limit) == 0
  }()

  deinit {
    state.withLock { $0.closeAll() }
  }

  /// What the code run over the overlay changed, in words, in order (`truncate PATH to N
  /// bytes`, `rename A to B`, …): what it would have done to the real disk.
  public var changes: [String] {
    state.withLock { $0.changes }
  }

  /// Opens a file: a real one (read from the disk) or one made in memory. `permissions` are
  /// ignored: nothing is created on the disk.
  ///
  /// - Throws: `StoreError` with the errno a real `open` would give (`ENOENT`, `EEXIST`,
  ///   `EISDIR`), or the real `stat`'s error.
  public func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    let key = OverlayPath.normalize(path)
    return try state.withLock { (state) throws(StoreError) -> StoreFileHandle in
      let number: Int
      switch try state.lookup(key) {
      case .file(let existing):
        if mode == .createExclusive { throw StoreError.system("open", .fileExists, path: path) }
        number = existing
      case .directory: throw StoreError.system("open", .isDirectory, path: path)
      case .special:
        throw StoreError(.unsupported, "not a regular file", path: path, syscall: "open")
      case .absent:
        guard mode == .createOrOpen || mode == .createExclusive else {
          throw StoreError.system("open", .noSuchFile, path: path)
        }
        try state.requireParent(of: key, "open")
        number = state.add(OverlayFile(basePath: nil, size: 0))
        state.names[key] = .file(number)
        state.note("create \(key)")
      }
      let descriptor = state.nextDescriptor
      state.nextDescriptor += 1
      state.handles[descriptor] = OverlayState.OpenFile(
        file: number, writable: mode != .readOnly, path: path)
      state.files[number]?.handles += 1
      return StoreFileHandle(descriptor: descriptor, path: path)
    }
  }

  /// Forgets a handle; the real file is closed when no handle is left on it.
  ///
  /// - Throws: `EBADF` for a handle that is not open.
  public func close(_ handle: StoreFileHandle) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in
      let open = try state.openFile(handle, "close")
      state.handles[handle.descriptor] = nil
      state.files[open.file]?.handles -= 1
      if state.files[open.file]?.handles == 0 { state.files[open.file]?.closeDescriptor() }
    }
  }

  /// Reads the file as the overlay sees it: the real bytes under the changes made in memory.
  ///
  /// - Throws: `EBADF` for a handle that is not open; the real `open` or `pread` error.
  public func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  ) throws(StoreError) -> Int {
    try state.withLock { (state) throws(StoreError) -> Int in
      let open = try state.openFile(handle, "pread")
      guard var file = state.files[open.file] else { return 0 }
      defer { state.files[open.file] = file }
      return try file.read(into: buffer, at: offset)
    }
  }

  /// Keeps the write in memory.
  ///
  /// - Throws: `EBADF` for a handle that is not open or not open for writing.
  public func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    let copied = [UInt8](bytes)
    try state.withLock { (state) throws(StoreError) in
      let open = try state.openFile(handle, "pwrite")
      guard open.writable else {
        throw StoreError.system("pwrite", .badFileDescriptor, path: handle.path)
      }
      state.files[open.file]?.write(copied, at: offset)
      state.note("write \(OverlayPath.normalize(open.path))")
    }
  }

  /// Extends the file in memory to `length` if shorter and returns a mapping whose writes are
  /// kept in memory like any other.
  ///
  /// - Throws: `EBADF` for a handle that is not open, `EACCES` for one open read-only, `EINVAL`
  ///   for a length of 0.
  public func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    let number = try state.withLock { (state) throws(StoreError) -> Int in
      let open = try state.openFile(handle, "mmap")
      guard open.writable else {
        throw StoreError.system("mmap", .permissionDenied, path: handle.path)
      }
      guard length > 0 else { throw StoreError.system("mmap", .invalidArgument, path: handle.path) }
      if let size = state.files[open.file]?.size, size < length {
        state.files[open.file]?.truncate(to: length)
        state.note("extend \(OverlayPath.normalize(open.path)) to \(length) bytes")
      }
      let number = state.nextMapping
      state.nextMapping += 1
      state.mappings[number] = (open.file, length, 0)
      return number
    }
    return OverlayMapping(fileSystem: self, number: number, length: length, path: handle.path)
  }

  /// A private copy of the file's first `length` bytes in memory (an `OverlayMemoryMapping`):
  /// the file grows to `length` in the overlay as a shared mapping would need it to.
  ///
  /// - Throws: `EBADF` for a handle that is not open, `EACCES` for one open read-only.
  public func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> any MemoryMapping
  {
    try state.withLock { (state) throws(StoreError) -> any MemoryMapping in
      let open = try state.openFile(handle, "mmap")
      guard open.writable else {
        throw StoreError.system("mmap", .permissionDenied, path: handle.path)
      }
      guard var file = state.files[open.file] else {
        throw StoreError.system("mmap", .badFileDescriptor, path: handle.path)
      }
      defer { state.files[open.file] = file }
      if file.size < length { file.truncate(to: length) }
      return try OverlayMemoryMapping(length: length) { (memory) throws(StoreError) in
        var done = 0
        while done < memory.count {
          let got = try file.read(
            into: UnsafeMutableRawBufferPointer(rebasing: memory[done...]), at: UInt64(done))
          guard got > 0 else { break }
          done += got
        }
      }
    }
  }

  /// Cuts or zero-extends the file in memory.
  ///
  /// - Throws: `EBADF` for a handle that is not open, `EINVAL` for one open read-only.
  public func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in
      let open = try state.openFile(handle, "ftruncate")
      guard open.writable else {
        throw StoreError.system("ftruncate", .invalidArgument, path: handle.path)
      }
      state.files[open.file]?.truncate(to: size)
      state.note("truncate \(OverlayPath.normalize(open.path)) to \(size) bytes")
    }
  }

  /// Does nothing (nothing reaches the disk).
  ///
  /// - Throws: `EBADF` for a handle that is not open.
  public func sync(_ handle: StoreFileHandle) throws(StoreError) {
    _ = try state.withLock { (state) throws(StoreError) in try state.openFile(handle, "fsync") }
  }

  /// Does nothing (nothing reaches the disk).
  ///
  /// - Throws: `ENOENT` when the directory does not exist in the overlay.
  public func syncDirectory(_ path: String) throws(StoreError) {
    let key = OverlayPath.normalize(path)
    try state.withLock { (state) throws(StoreError) in
      guard try state.lookup(key) == .directory else {
        throw StoreError.system("open", .noSuchFile, path: path)
      }
    }
  }

  /// Renames in memory, replacing any file at `destination`.
  ///
  /// - Throws: `ENOENT` for a missing source or destination directory, `EISDIR` for a
  ///   directory.
  public func rename(_ source: String, to destination: String) throws(StoreError) {
    let from = OverlayPath.normalize(source)
    let to = OverlayPath.normalize(destination)
    try state.withLock { (state) throws(StoreError) in
      let number = try state.existingFile(from, "rename")
      guard from != to else { return }
      try state.requireParent(of: to, "rename")
      if try state.lookup(to) == .directory {
        throw StoreError.system("rename", .isDirectory, path: destination)
      }
      state.names[to] = .file(number)
      state.names[from] = .absent
      state.note("rename \(from) to \(to)")
    }
  }

  /// Removes the name in memory.
  ///
  /// - Throws: `ENOENT` for a missing file, `EISDIR` for a directory.
  public func remove(_ path: String) throws(StoreError) {
    let key = OverlayPath.normalize(path)
    try state.withLock { (state) throws(StoreError) in
      _ = try state.existingFile(key, "unlink")
      state.names[key] = .absent
      state.note("remove \(key)")
    }
  }

  /// The names in `directory`: the real ones, less those removed or renamed away in memory,
  /// plus those made in memory; sorted.
  ///
  /// - Throws: `ENOENT` for a missing directory; the real `opendir` error.
  public func list(_ directory: String) throws(StoreError) -> [String] {
    let key = OverlayPath.normalize(directory)
    return try state.withLock { (state) throws(StoreError) -> [String] in
      guard try state.lookup(key) == .directory else {
        throw StoreError.system("opendir", .noSuchFile, path: directory)
      }
      try state.takeListing(of: key)
      var names = Set<String>()
      for (path, entry) in state.names
      where entry != .absent && path != key && OverlayPath.parent(of: path) == key {
        names.insert(StorePath.name(of: path))
      }
      return names.sorted()
    }
  }

  /// The next data at or after `offset` in the overlay's file: its writes and the real file's
  /// data (`SEEK_DATA`), so a sparse file's holes are skipped unread.
  ///
  /// - Throws: `EBADF` for a handle that is not open.
  public func nextData(_ handle: StoreFileHandle, from offset: UInt64) throws(StoreError)
    -> UInt64?
  {
    try state.withLock { (state) throws(StoreError) -> UInt64? in
      let open = try state.openFile(handle, "lseek")
      guard var file = state.files[open.file] else { return nil }
      defer { state.files[open.file] = file }
      return try file.nextData(from: offset)
    }
  }

  /// The file's size in the overlay.
  ///
  /// - Throws: `EBADF` for a handle that is not open.
  public func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 {
    try state.withLock { (state) throws(StoreError) -> UInt64 in
      let open = try state.openFile(handle, "fstat")
      return state.files[open.file]?.size ?? 0
    }
  }

  /// The size of the file at `path` in the overlay, or `nil` when no file is there
  /// (directories included).
  ///
  /// - Throws: The real `stat`'s error other than `ENOENT`.
  public func fileSize(_ path: String) throws(StoreError) -> UInt64? {
    let key = OverlayPath.normalize(path)
    return try state.withLock { (state) throws(StoreError) -> UInt64? in
      guard case .file(let number) = try state.lookup(key) else { return nil }
      return state.files[number]?.size
    }
  }

  /// Makes the directory and its missing parents in memory (`permissions` are ignored).
  ///
  /// - Throws: `EEXIST` when a file is in the way.
  public func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    let key = OverlayPath.normalize(path)
    try state.withLock { (state) throws(StoreError) in
      for directory in OverlayPath.ancestry(of: key) {
        switch try state.lookup(directory) {
        case .directory: continue
        case .absent:
          state.names[directory] = .directory
          state.note("create directory \(directory)")
        case .file, .special: throw StoreError.system("mkdir", .fileExists, path: directory)
        }
      }
    }
  }

  /// 1 TiB: the overlay never runs out of space.
  public func freeSpace(_ path: String) throws(StoreError) -> UInt64 {
    1 << 40
  }

  /// Succeeds without locking anything: the overlay reads a store whoever holds it.
  ///
  /// - Throws: `EBADF` for a handle that is not open.
  public func lock(_ handle: StoreFileHandle) throws(StoreError) {
    _ = try state.withLock { (state) throws(StoreError) in try state.openFile(handle, "flock") }
  }
}

/// Paths as the overlay keys them: `//` collapsed, `.` components and a trailing `/` dropped,
/// so that every spelling of a name finds the same entry.
enum OverlayPath {
  /// The normal spelling of `path`.
  static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    let joined = parts.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// The directory holding `path` (normalized).
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// `path` and every directory above it, outermost first (`/a/b` → `/`, `/a`, `/a/b`).
  static func ancestry(of path: String) -> [String] {
    var chain = [path]
    var current = path
    while current != "/" && current != "." {
      current = parent(of: current)
      chain.append(current)
    }
    return chain.reversed()
  }
}
