/// The only door to the disk: every operation of the store goes through one of these.
///
/// Two implementations ship: ``PosixFileSystem`` for real disks, and `SimulatedFileSystem`
/// (in `StoicTesting`) which models what a crash can leave behind. Code written against this
/// protocol can be crash-tested at every point with `CrashExplorer`.
///
/// There is no append mode and no shared file position: every read and write names its
/// offset, so callers track their own end (and can roll a failed write back by truncating to
/// it).
///
/// Durability, as the simulated model states it and real disks need it:
/// - A write or truncate is durable only after ``sync(_:)`` on that handle returns. A write
///   through a mapping (``map(_:length:)``) is a write like any other.
/// - A create, rename or remove is durable only after ``syncDirectory(_:)`` on the parent
///   directory returns. Syncing a file does not sync its name; syncing a directory does not
///   sync file data.
///
/// Every method throws ``StoreError`` and nothing else.
public protocol FileSystem: Sendable {
  /// Opens (or creates) a file.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - mode: How to open it; ``OpenMode/createExclusive`` fails with
  ///     ``StoreError/Code/alreadyExists`` if the file exists.
  ///   - permissions: The permission bits a file created by this call gets, exactly, whatever
  ///     the process's umask; an existing file keeps its own. ``open(_:_:)`` passes
  ///     ``FilePermissions/privateFile``.
  /// - Returns: A handle that must be closed with ``close(_:)``.
  /// - Throws: ``StoreError`` with the `open` errno.
  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoreFileHandle

  /// Closes a handle. Closing does not sync.
  func close(_ handle: StoreFileHandle) throws(StoreError)

  /// Reads up to `buffer.count` bytes at `offset`, restarting short reads until the buffer is
  /// full or the file ends.
  ///
  /// - Returns: The number of bytes read; fewer than `buffer.count` only at the end of the file.
  /// - Throws: ``StoreError`` with the `pread` errno (`EIO` from a bad sector, for example).
  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  ) throws(StoreError) -> Int

  /// Writes all of `bytes` at `offset`, restarting short writes.
  ///
  /// On failure some prefix of the bytes may have reached the file; the caller decides what to
  /// do with it (the journal truncates back to its last good end).
  /// - Throws: ``StoreError`` with the `pwrite` errno (`ENOSPC`, `EDQUOT`, `EIO`, …).
  func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)

  /// Reserves the disk blocks of the file's first `length` bytes (extending the file with
  /// zeros if it is shorter) and maps them shared for writing (see ``FileMapping``).
  ///
  /// The extension is a change of the file's size like ``truncate(_:to:)``: durable after
  /// ``sync(_:)``. The mapping stays valid after the handle is closed, until
  /// ``FileMapping/close()``.
  ///
  /// - Parameters:
  ///   - handle: A handle opened for writing.
  ///   - length: How many bytes to map, more than 0.
  /// - Returns: The mapping; close it with ``FileMapping/close()`` before cutting the file.
  /// - Throws: ``StoreError`` with the `fallocate` errno (``StoreError/Code/diskFull`` when the
  ///   blocks cannot be reserved) or the `mmap` errno (``StoreError/Code/unsupported`` where
  ///   the file system cannot map files); ``StoreError/Code/invalidArgument`` for a length of 0
  ///   or beyond what the platform can map. A caller can fall back to positional writes.
  func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping

  /// Reserves the disk blocks of the file's first `length` bytes (extending the file with
  /// zeros if it is shorter) and maps them shared for reading and writing in place (see
  /// ``MemoryMapping``): for words that threads update with atomic instructions.
  ///
  /// The extension is durable after ``sync(_:)``, like ``map(_:length:)``'s. The mapping stays
  /// valid after the handle is closed, until ``MemoryMapping/close()``. A file system that
  /// cannot do this keeps the default, which throws ``StoreError/Code/unsupported``.
  ///
  /// - Parameters:
  ///   - handle: A handle opened for writing.
  ///   - length: How many bytes to map, more than 0.
  /// - Returns: The mapping; close it before cutting the file.
  /// - Throws: As ``map(_:length:)``.
  func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any MemoryMapping

  /// Sets the file's size, cutting or zero-extending it.
  func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError)

  /// Makes the file's data and size durable: `F_FULLFSYNC` where the platform has it (falling
  /// back to `fsync` with the event `store.fullsync_unavailable`), `fdatasync` on Linux (data,
  /// size and block map, not timestamps).
  ///
  /// - Throws: ``StoreError``; after an `EIO` the kernel may have dropped the unsynced data,
  ///   so the caller must treat the handle's unsynced writes as lost ("fsyncgate").
  func sync(_ handle: StoreFileHandle) throws(StoreError)

  /// Makes the names in a directory (creates, renames, removes) durable.
  func syncDirectory(_ path: String) throws(StoreError)

  /// Renames a file, replacing any file at `destination` atomically.
  func rename(_ source: String, to destination: String) throws(StoreError)

  /// Removes a file.
  func remove(_ path: String) throws(StoreError)

  /// The names (not paths) of the entries in a directory, sorted, without `.` and `..`.
  func list(_ directory: String) throws(StoreError) -> [String]

  /// The size of an open file.
  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64

  /// Where the next bytes that may not be zero start, at or after `offset` in an open file
  /// (`lseek(2)`'s `SEEK_DATA`): every byte from `offset` to the answer is a hole, read as
  /// zero; `nil` when only holes follow. A file system that does not know its holes keeps the
  /// default, `offset` (anything may be data). Readers skip a sparse file's holes with it.
  func nextData(_ handle: StoreFileHandle, from offset: UInt64) throws(StoreError) -> UInt64?

  /// The size of the file at `path`, or `nil` when nothing is there.
  func fileSize(_ path: String) throws(StoreError) -> UInt64?

  /// Whether `path` itself, not what it points to, is a symbolic link (`false` when nothing is
  /// there). A file system without symbolic links keeps the default, `false`.
  func isSymbolicLink(_ path: String) throws(StoreError) -> Bool

  /// Creates a directory and any missing parents; succeeds if it exists.
  ///
  /// - Parameters:
  ///   - path: The directory to create.
  ///   - permissions: The permission bits each directory created by this call gets,
  ///     exactly, whatever the process's umask; existing ones keep their own.
  ///     ``createDirectory(_:)`` passes ``FilePermissions/privateDirectory``.
  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError)

  /// The bytes available to an unprivileged writer on the file system holding `path`.
  func freeSpace(_ path: String) throws(StoreError) -> UInt64

  /// Takes an exclusive advisory lock on an open file without waiting.
  ///
  /// - Throws: ``StoreError/Code/locked`` if another handle (in this or another process) holds
  ///   it. The lock is released when the handle is closed or the process ends.
  func lock(_ handle: StoreFileHandle) throws(StoreError)
}

extension FileSystem {
  /// `offset`: a file system that does not know its holes (anything may be data).
  public func nextData(_ handle: StoreFileHandle, from offset: UInt64) throws(StoreError)
    -> UInt64?
  {
    offset
  }

  /// `false`: a file system without symbolic links.
  public func isSymbolicLink(_ path: String) throws(StoreError) -> Bool { false }

  /// Opens (or creates) a file; a file this creates is private to its owner
  /// (``FilePermissions/privateFile``, `0600`). See ``open(_:_:permissions:)``.
  public func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> StoreFileHandle {
    try open(path, mode, permissions: .privateFile)
  }

  /// Creates a directory and any missing parents, each private to its owner
  /// (``FilePermissions/privateDirectory``, `0700`); succeeds if it exists. See
  /// ``createDirectory(_:permissions:)``.
  public func createDirectory(_ path: String) throws(StoreError) {
    try createDirectory(path, permissions: .privateDirectory)
  }
}
