public import StoicStore

/// An in-memory `FileSystem` that implements Stoic's crash model exactly, for crash tests.
///
/// The disk keeps, for every file (inode), its durable bytes and the ordered list of writes
/// and truncates since its last ``sync(_:)``, and, for every directory, the ordered list of
/// creates, renames and removes since its last ``syncDirectory(_:)``. Reads, sizes and
/// listings see the running process's view (everything applied); a crash keeps the durable
/// state plus whatever subset of the pending operations the model allows (see
/// ``CrashExplorer``). Names refer to inodes and handles refer to inodes, so a file renamed
/// or removed while open is still written through its handle, and a kept rename names the
/// renamed inode whether or not its old name's create was kept.
///
/// A directory made by ``createDirectory(_:)`` is a pending operation of its parent, like a
/// file's create: a crash that loses it loses the directory and everything in it, however
/// well synced. `"."` and `"/"` always exist.
/// Errors mirror POSIX: the `StoreError` carries the syscall and errno a real disk would give
/// (`open` of a missing file: `ENOENT`; an exclusive create of an existing one: `EEXIST`).
///
/// Thread-safe: the state lives behind a lock.
public final class SimulatedFileSystem: FileSystem, Sendable {
  let state: SleepingLock<SimulatedDiskState>

  /// An empty disk holding only the directories `"."` and `"/"`.
  public init() {
    state = SleepingLock(SimulatedDiskState())
  }

  /// A disk with the given state (for copies and crash images).
  init(state: SimulatedDiskState) {
    self.state = SleepingLock(state)
  }

  /// A disk whose files (path to bytes) are all durable and whose directories exist.
  convenience init(durableFiles files: [String: [UInt8]], directories: Set<String>) {
    self.init(state: SimulatedDiskState.settled(files: files, directories: directories))
  }

  /// The number of operations performed so far that a crash can fall between: an open that
  /// creates a file, a write, a truncate, a sync, a directory sync, a rename, a remove and a
  /// ``createDirectory(_:)`` that creates something.
  public var operationCount: Int {
    state.withLock { $0.operationCount }
  }

  /// The current contents of the file at `path`, as the running process sees them (every
  /// pending operation applied, memory mappings' stores written back), or nil when no file is
  /// there.
  public func contents(_ path: String) -> [UInt8]? {
    state.withLock { state in
      state.captureMemory()
      return state.names[SimulatedPath.normalize(path)].map { state.contents[$0] ?? [] }
    }
  }

  /// The contents that survive any crash: the durable bytes of the file the durable name
  /// `path` refers to, or nil when the name, or the making of its directory, is not durable.
  public func durableContents(_ path: String) -> [UInt8]? {
    state.withLock { state in
      let path = SimulatedPath.normalize(path)
      guard state.disk.durableDirectories.contains(SimulatedPath.parent(of: path)) else {
        return nil
      }
      return state.disk.durableNames[path].map { state.disk.inodes[$0]?.durable ?? [] }
    }
  }

  /// Writes `bytes` directly into the durable state, bypassing the model and the operation
  /// count: for tests that plant a file or corrupt an old one.
  ///
  /// The file at `path` (or a new one, with its name made durable) gets `bytes` as its durable
  /// and current contents, and loses its pending writes. Missing parent directories are
  /// created, and the directories it is in are made durable.
  public func setDurableContents(_ path: String, _ bytes: [UInt8]) {
    state.withLock { state in
      let path = SimulatedPath.normalize(path)
      for directory in SimulatedPath.ancestry(of: SimulatedPath.parent(of: path)) {
        state.disk.directories.insert(directory)
        let parent = SimulatedPath.parent(of: directory)
        state.disk.pendingDirectoryOperations[parent]?.removeAll {
          $0 == .makeDirectory(path: directory)
        }
      }
      let inode: Int
      if let existing = state.names[path] {
        inode = existing
      } else {
        inode = state.nextInode
        state.nextInode += 1
        state.names[path] = inode
      }
      state.disk.durableNames[path] = inode
      state.disk.inodes[inode] = DiskSnapshot.Inode(durable: bytes, pending: [])
      state.contents[inode] = bytes
    }
  }

  /// Overwrites bytes of the durable file at `path` in place (bit rot), zero-extending it if
  /// the damage reaches past its end; pending operations stay pending on top of the damage.
  /// Does nothing when `path` is not durable.
  public func damage(_ path: String, at offset: Int, with bytes: [UInt8]) {
    state.withLock { state in
      guard offset >= 0,
        let inode = state.disk.durableNames[SimulatedPath.normalize(path)],
        var node = state.disk.inodes[inode]
      else { return }
      PendingFileOperation.write(bytes, count: bytes.count, at: offset, into: &node.durable)
      state.disk.inodes[inode] = node
      state.contents[inode] = state.rebuiltContents(of: inode)
    }
  }

  /// Makes everything pending durable, as if every file and directory had been synced: a
  /// settled disk. Not an operation.
  public func settle() {
    state.withLock { $0.settle() }
  }

  /// A copy of this disk: the same durable state and pending operations, no open handles,
  /// locks or faults, and an operation count of zero.
  public func copy() -> SimulatedFileSystem {
    let copied = state.withLock { state in
      state.captureMemory()
      var copy = SimulatedDiskState()
      copy.disk = state.disk
      copy.names = state.names
      copy.contents = state.contents
      copy.nextInode = state.nextInode
      copy.permissions = state.permissions
      copy.collectGarbage()
      return copy
    }
    return SimulatedFileSystem(state: copied)
  }

  /// The disk after a crash that kept nothing pending: a new disk holding only the durable
  /// names and contents, with no pending operations and no handles.
  public func crashedDurableOnly() -> SimulatedFileSystem {
    let (files, directories) = state.withLock {
      ($0.disk.durableFiles, $0.disk.durableDirectories)
    }
    return SimulatedFileSystem(durableFiles: files, directories: directories)
  }

  /// Injects a fault into the operations that follow (see ``SimulatedFault``).
  public func inject(_ fault: SimulatedFault) {
    state.withLock { $0.faults.append(SimulatedDiskState.ActiveFault(fault: fault)) }
  }

  /// Removes every injected fault.
  public func clearFaults() {
    state.withLock { $0.faults.removeAll() }
  }

  /// The paths of all files that exist now (the running process's view), sorted.
  /// Directories are not listed.
  public func allPaths() -> [String] {
    state.withLock { $0.names.keys.sorted() }
  }

  /// The directories that exist now (the running process's view, durable or not), sorted
  /// (always including `"."` and `"/"`).
  public func allDirectories() -> [String] {
    state.withLock { $0.disk.directories.sorted() }
  }

  /// The permissions the file or directory at `path` was created with through this disk (or
  /// the copy it came from), or nil when nothing is there or it was planted or restored from a
  /// crash image (permissions are not part of the crash model).
  public func permissions(_ path: String) -> FilePermissions? {
    state.withLock { state in
      let path = SimulatedPath.normalize(path)
      if let inode = state.names[path] { return state.permissions.files[inode] }
      return state.permissions.directories[path]
    }
  }
}

/// A fault ``SimulatedFileSystem`` injects into the operations that follow
/// ``SimulatedFileSystem/inject(_:)``.
///
/// Counted faults (`nth`) fire once, on the n-th matching call after injection, and are then
/// spent. Faults are not copied by ``SimulatedFileSystem/copy()`` and do not survive a crash.
public enum SimulatedFault: Sendable, Hashable {
  /// The n-th (1-based, counted from injection) write fails with `ENOSPC` (syscall `pwrite`);
  /// `partialBytes` of it land first, as a pending (unsynced) write.
  case noSpaceOnWrite(nth: Int, partialBytes: Int = 0)
  /// The n-th (1-based, counted from injection) ``SimulatedFileSystem/map(_:length:)`` fails
  /// with `ENOSPC` (syscall `posix_fallocate`) before changing anything: no blocks could be
  /// reserved.
  case noSpaceOnMap(nth: Int)
  /// The n-th (1-based, counted from injection) file sync fails with `EIO` (syscall `fsync`)
  /// and the file's pending writes and truncates are dropped, from the running process's view
  /// too ("fsyncgate"): the contents revert to the durable ones, and a later sync succeeds
  /// with the data gone.
  case ioErrorOnSync(nth: Int)
  /// Every read of the file at `path` fails with `EIO` (syscall `pread`) until
  /// ``SimulatedFileSystem/clearFaults()``.
  case ioErrorOnRead(path: String)
  /// ``SimulatedFileSystem/freeSpace(_:)`` reports this many bytes until
  /// ``SimulatedFileSystem/clearFaults()``.
  case freeSpace(UInt64)
}

extension SimulatedFileSystem {
  /// Starts remembering the disk after every operation; crash point 0 is the disk now.
  func startRecording() {
    state.withLock { state in state.recording = [state.disk] }
  }

  /// Stops recording and returns the disk at every crash point (index = operations since
  /// ``startRecording()``).
  func stopRecording() -> [DiskSnapshot] {
    state.withLock { state in
      let recording = state.recording ?? [state.disk]
      state.recording = nil
      return recording
    }
  }

  /// The crash point the disk is at now: operations since ``startRecording()``, or the
  /// operation count when not recording.
  var currentCrashPoint: Int {
    state.withLock { state in state.recording.map { $0.count - 1 } ?? state.operationCount }
  }
}

extension SimulatedFileSystem {
  /// The distinct disks a crash right now could leave, as ``CrashExplorer`` enumerates them
  /// for one crash point: all of them while they fit in `limit` (with every tear point of
  /// every write when those fit too), else the durable-only image, the everything-kept image
  /// and a sample drawn from `seed`. The first image is always the durable-only one.
  ///
  /// - Parameters:
  ///   - limit: The most images returned (at least 1).
  ///   - seed: The seed of the sample and of garbage bytes.
  public func crashImages(limit: Int = 64, seed: UInt64 = CrashBudget.defaultSeed)
    -> [CrashImage]
  {
    let snapshot = state.withLock { $0.disk }
    var images: [CrashImage] = []
    CrashImageSpace(snapshot: snapshot, seed: seed).forEachImage(limit: limit, seed: seed) {
      images.append($0)
    }
    return images
  }

  /// The number of pending operations a crash now decides about: the pending writes and
  /// truncates of files some crash image can name, and the pending creates, renames, removes
  /// and made directories of every directory.
  public var pendingOperationCount: Int {
    let snapshot = state.withLock { $0.disk }
    return CrashImageSpace(snapshot: snapshot, seed: 0).slots.count
  }
}
