import StoicStore

/// Everything a ``SimulatedFileSystem`` knows, kept behind its mutex: the crash-relevant
/// ``DiskSnapshot`` plus the running process's view (current names and contents), open
/// handles, locks, faults and the operation recording.
struct SimulatedDiskState: Sendable {
  /// An open handle: the inode it refers to (it follows the file through renames) and
  /// whether it may write.
  struct OpenFile: Sendable {
    var inode: Int
    var writable: Bool
  }

  /// An injected fault and how many matching calls it has seen.
  struct ActiveFault: Sendable {
    var fault: SimulatedFault
    var seen = 0
  }

  /// The largest offset or size the simulation accepts (1 TiB).
  static let maximumFileSize = 1 << 40
  /// What ``SimulatedFileSystem/freeSpace(_:)`` reports without a fault (1 TiB).
  static let defaultFreeSpace: UInt64 = 1 << 40

  /// Durable state and pending operations.
  var disk = DiskSnapshot()
  /// The names as the running process sees them.
  var names: [String: Int] = [:]
  /// The contents as the running process sees them: durable plus every pending operation.
  var contents: [Int: [UInt8]] = [:]
  /// The next inode number.
  var nextInode = 1
  /// Open handles by descriptor.
  var handles: [Int32: OpenFile] = [:]
  /// The next descriptor.
  var nextDescriptor: Int32 = 3
  /// Lock holders: inode to descriptor.
  var locks: [Int: Int32] = [:]
  /// Injected faults, in injection order.
  var faults: [ActiveFault] = []
  /// Operations a crash can fall between, performed so far.
  var operationCount = 0
  /// When recording, the disk after setup and after every operation since.
  var recording: [DiskSnapshot]?
  /// Open mappings (``SimulatedFileMapping``) by number: the inode each maps, its length and
  /// the offset below which it was released.
  var mappings: [Int: (inode: Int, length: UInt64, released: UInt64)] = [:]
  /// The next mapping number (shared by file and memory mappings).
  var nextMapping = 1
  /// Open memory mappings (``SimulatedMemoryMapping``) by number: see
  /// ``SimulatedDiskState/MemoryRegion``.
  var memoryMappings: [Int: MemoryRegion] = [:]
  /// The permissions each file was created with, by inode, and each directory, by path. Not
  /// part of the crash model: a crash image starts with none recorded.
  var permissions = SimulatedPermissions()

  /// Counts an operation and, when recording, remembers the disk after it.
  mutating func recordOperation() {
    operationCount += 1
    recording?.append(disk)
  }

  /// A state whose files are all durable, with no pending operations, handles or faults.
  static func settled(files: [String: [UInt8]], directories: Set<String>) -> SimulatedDiskState {
    var state = SimulatedDiskState()
    state.disk.directories = directories.union([".", "/"])
    for path in files.keys.sorted() {
      let inode = state.nextInode
      state.nextInode += 1
      let bytes = files[path] ?? []
      state.disk.inodes[inode] = DiskSnapshot.Inode(durable: bytes, pending: [])
      state.disk.durableNames[path] = inode
      state.names[path] = inode
      state.contents[inode] = bytes
    }
    return state
  }

  /// The contents of `inode` rebuilt from its durable bytes and pending operations.
  func rebuiltContents(of inode: Int) -> [UInt8] {
    guard let node = disk.inodes[inode] else { return [] }
    var bytes = node.durable
    for operation in node.pending { operation.apply(to: &bytes) }
    return bytes
  }

  /// Makes everything pending durable.
  mutating func settle() {
    captureMemory()
    for inode in disk.inodes.keys {
      disk.inodes[inode] = DiskSnapshot.Inode(durable: contents[inode] ?? [], pending: [])
    }
    disk.durableNames = names
    disk.pendingDirectoryOperations = [:]
    collectGarbage()
  }

  /// Forgets inodes nothing can reach any more: no current or durable name, no pending
  /// directory operation and no open handle.
  mutating func collectGarbage() {
    var live = disk.reachableInodes.union(names.values)
    for operations in disk.pendingDirectoryOperations.values {
      for case .remove(_, let inode) in operations { live.insert(inode) }
    }
    for file in handles.values { live.insert(file.inode) }
    for mapping in mappings.values { live.insert(mapping.inode) }
    for region in memoryMappings.values { live.insert(region.inode) }
    for inode in disk.inodes.keys where !live.contains(inode) {
      disk.inodes[inode] = nil
      contents[inode] = nil
      permissions.files[inode] = nil
    }
  }

  /// The open file behind `handle`, or `EBADF` for `syscall`.
  func openFile(_ handle: StoreFileHandle, _ syscall: String) throws(StoreError) -> OpenFile {
    guard let file = handles[handle.descriptor] else {
      throw StoreError.system(syscall, .badFileDescriptor, path: handle.path)
    }
    return file
  }

  /// `offset` as an `Int` within the simulation's limit, or `EINVAL` for `syscall`.
  func checkedOffset(_ offset: UInt64, _ syscall: String, path: String) throws(StoreError) -> Int {
    guard offset <= UInt64(SimulatedDiskState.maximumFileSize) else {
      throw StoreError.system(syscall, .invalidArgument, path: path)
    }
    return Int(offset)
  }

  /// Appends a pending operation to `inode` and applies it to the current contents.
  mutating func appendPending(_ operation: PendingFileOperation, to inode: Int) {
    disk.inodes[inode, default: DiskSnapshot.Inode(durable: [], pending: [])].pending.append(
      operation)
    operation.apply(to: &contents[inode, default: []])
  }

  /// Counts a write against the `noSpaceOnWrite` faults; returns the partial byte count when
  /// one fires (and spends it).
  mutating func consumeWriteFault() -> Int? {
    var fired: (index: Int, partialBytes: Int)?
    for index in faults.indices {
      guard case .noSpaceOnWrite(let nth, let partialBytes) = faults[index].fault else {
        continue
      }
      faults[index].seen += 1
      if faults[index].seen == nth && fired == nil { fired = (index, partialBytes) }
    }
    guard let fired else { return nil }
    faults.remove(at: fired.index)
    return fired.partialBytes
  }

  /// Counts a map against the `noSpaceOnMap` faults; true when one fires (and spends it).
  mutating func consumeMapFault() -> Bool {
    var fired: Int?
    for index in faults.indices {
      guard case .noSpaceOnMap(let nth) = faults[index].fault else { continue }
      faults[index].seen += 1
      if faults[index].seen == nth && fired == nil { fired = index }
    }
    guard let fired else { return false }
    faults.remove(at: fired)
    return true
  }

  /// Counts a sync against the `ioErrorOnSync` faults; true when one fires (and spends it).
  mutating func consumeSyncFault() -> Bool {
    var fired: Int?
    for index in faults.indices {
      guard case .ioErrorOnSync(let nth) = faults[index].fault else { continue }
      faults[index].seen += 1
      if faults[index].seen == nth && fired == nil { fired = index }
    }
    guard let fired else { return false }
    faults.remove(at: fired)
    return true
  }

  /// Whether reads of `inode` fail with an injected `EIO`.
  func readFails(inode: Int) -> Bool {
    for active in faults {
      guard case .ioErrorOnRead(let path) = active.fault else { continue }
      if names[SimulatedPath.normalize(path)] == inode { return true }
    }
    return false
  }

  /// The free space an injected fault reports, if any (the latest wins).
  var injectedFreeSpace: UInt64? {
    for active in faults.reversed() {
      if case .freeSpace(let bytes) = active.fault { return bytes }
    }
    return nil
  }
}

/// The permissions a ``SimulatedFileSystem`` was asked to create files and directories with,
/// kept so tests can check them (``SimulatedFileSystem/permissions(_:)``); the crash model
/// does not use them.
struct SimulatedPermissions: Sendable {
  /// By inode: a file keeps its permissions through renames.
  var files: [Int: FilePermissions] = [:]
  /// By normalized path: directories are never renamed or removed.
  var directories: [String: FilePermissions] = [:]
}
