import StoicStore

extension SimulatedDiskState {
  /// `open(2)`: see ``SimulatedFileSystem/open(_:_:permissions:)``.
  mutating func open(_ rawPath: String, _ mode: OpenMode, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    let path = SimulatedPath.normalize(rawPath)
    if disk.directories.contains(path) {
      throw StoreError.system("open", .isDirectory, path: rawPath)
    }
    let inode: Int
    var created = false
    if let existing = names[path] {
      if mode == .createExclusive { throw StoreError.system("open", .fileExists, path: rawPath) }
      inode = existing
    } else {
      switch mode {
      case .readOnly, .readWrite:
        throw StoreError.system("open", .noSuchFile, path: rawPath)
      case .createOrOpen, .createExclusive:
        break
      }
      let parent = SimulatedPath.parent(of: path)
      guard disk.directories.contains(parent) else {
        throw StoreError.system("open", .noSuchFile, path: rawPath)
      }
      inode = nextInode
      nextInode += 1
      disk.inodes[inode] = DiskSnapshot.Inode(durable: [], pending: [])
      contents[inode] = []
      names[path] = inode
      self.permissions.files[inode] = permissions
      disk.pendingDirectoryOperations[parent, default: []].append(
        .create(path: path, inode: inode))
      created = true
    }
    let descriptor = nextDescriptor
    nextDescriptor += 1
    handles[descriptor] = OpenFile(inode: inode, writable: mode != .readOnly)
    if created { recordOperation() }
    return StoreFileHandle(descriptor: descriptor, path: rawPath)
  }

  /// `close(2)`: releases the handle and its lock.
  mutating func close(_ handle: StoreFileHandle) throws(StoreError) {
    guard let file = handles.removeValue(forKey: handle.descriptor) else {
      throw StoreError.system("close", .badFileDescriptor, path: handle.path)
    }
    if locks[file.inode] == handle.descriptor { locks[file.inode] = nil }
    collectGarbage()
  }

  /// `pread(2)` into a caller's buffer.
  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  )
    throws(StoreError) -> Int
  {
    let file = try openFile(handle, "pread")
    if readFails(inode: file.inode) {
      throw StoreError.system("pread", .ioError, path: handle.path)
    }
    let bytes = contents[file.inode] ?? []
    guard offset < UInt64(bytes.count) else { return 0 }
    let start = Int(offset)
    let count = min(buffer.count, bytes.count - start)
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
    }
    return count
  }

  /// `pwrite(2)`: a pending write, or the injected `ENOSPC` after a partial one.
  mutating func write(_ handle: StoreFileHandle, _ bytes: [UInt8], at offset: UInt64)
    throws(StoreError)
  {
    let file = try openFile(handle, "pwrite")
    guard file.writable else {
      throw StoreError.system("pwrite", .badFileDescriptor, path: handle.path)
    }
    let start = try checkedOffset(offset, "pwrite", path: handle.path)
    guard bytes.count <= SimulatedDiskState.maximumFileSize - start else {
      throw StoreError.system("pwrite", .invalidArgument, path: handle.path)
    }
    guard !bytes.isEmpty else { return }
    if let partialBytes = consumeWriteFault() {
      let landed = min(max(partialBytes, 0), bytes.count)
      if landed > 0 {
        appendPending(.write(offset: start, bytes: Array(bytes[..<landed])), to: file.inode)
        recordOperation()
      }
      throw StoreError.system("pwrite", .noSpace, path: handle.path)
    }
    appendPending(.write(offset: start, bytes: bytes), to: file.inode)
    recordOperation()
  }

  /// `ftruncate(2)`: a pending truncate.
  mutating func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    let file = try openFile(handle, "ftruncate")
    guard file.writable else {
      throw StoreError.system("ftruncate", .invalidArgument, path: handle.path)
    }
    let newSize = try checkedOffset(size, "ftruncate", path: handle.path)
    appendPending(.truncate(size: newSize), to: file.inode)
    recordOperation()
  }

  /// `fsync(2)`: the file's pending operations become durable, or (injected `EIO`) are dropped.
  mutating func sync(_ handle: StoreFileHandle) throws(StoreError) {
    let file = try openFile(handle, "fsync")
    if consumeSyncFault() {
      let durable = disk.inodes[file.inode]?.durable ?? []
      disk.inodes[file.inode] = DiskSnapshot.Inode(durable: durable, pending: [])
      contents[file.inode] = durable
      recordOperation()
      throw StoreError.system("fsync", .ioError, path: handle.path)
    }
    disk.inodes[file.inode] = DiskSnapshot.Inode(
      durable: contents[file.inode] ?? [], pending: [])
    recordOperation()
  }

  /// `fsync(2)` of a directory: its pending creates, renames, removes and made directories
  /// become durable.
  mutating func syncDirectory(_ rawPath: String) throws(StoreError) {
    let directory = SimulatedPath.normalize(rawPath)
    guard disk.directories.contains(directory) else {
      throw StoreError.system(
        "open", names[directory] == nil ? .noSuchFile : .notDirectory,
        path: rawPath)
    }
    let operations = disk.pendingDirectoryOperations.removeValue(forKey: directory) ?? []
    for operation in operations { operation.apply(to: &disk.durableNames) }
    collectGarbage()
    recordOperation()
  }

  /// `rename(2)`: a pending rename, filed under the destination's directory.
  mutating func rename(_ source: String, to destination: String) throws(StoreError) {
    let from = SimulatedPath.normalize(source)
    let to = SimulatedPath.normalize(destination)
    if disk.directories.contains(from) || disk.directories.contains(to) {
      throw StoreError.system("rename", .isDirectory, path: source)
    }
    guard let inode = names[from] else {
      throw StoreError.system("rename", .noSuchFile, path: source)
    }
    let parent = SimulatedPath.parent(of: to)
    guard disk.directories.contains(parent) else {
      throw StoreError.system("rename", .noSuchFile, path: destination)
    }
    guard from != to else { return }
    names[from] = nil
    names[to] = inode
    disk.pendingDirectoryOperations[parent, default: []].append(
      .rename(from: from, to: to, inode: inode))
    recordOperation()
  }

  /// `unlink(2)`: a pending remove.
  mutating func remove(_ rawPath: String) throws(StoreError) {
    let path = SimulatedPath.normalize(rawPath)
    guard let inode = names[path] else {
      let errno: StoreErrno = disk.directories.contains(path) ? .isDirectory : .noSuchFile
      throw StoreError.system("unlink", errno, path: rawPath)
    }
    names[path] = nil
    disk.pendingDirectoryOperations[SimulatedPath.parent(of: path), default: []].append(
      .remove(path: path, inode: inode))
    recordOperation()
  }

  /// The sorted names of the files and directories directly in `directory`.
  func list(_ rawPath: String) throws(StoreError) -> [String] {
    let directory = SimulatedPath.normalize(rawPath)
    guard disk.directories.contains(directory) else {
      let errno: StoreErrno = names[directory] == nil ? .noSuchFile : .notDirectory
      throw StoreError.system("opendir", errno, path: rawPath)
    }
    var entries: [String] = []
    for path in names.keys where SimulatedPath.parent(of: path) == directory {
      entries.append(StorePath.name(of: path))
    }
    for path in disk.directories where path != directory {
      if SimulatedPath.parent(of: path) == directory { entries.append(StorePath.name(of: path)) }
    }
    return entries.sorted()
  }

  /// The current size of the file behind `handle`.
  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 {
    let file = try openFile(handle, "fstat")
    return UInt64(contents[file.inode]?.count ?? 0)
  }

  /// The current size of the file at `path`, or nil.
  func fileSize(_ rawPath: String) -> UInt64? {
    guard let inode = names[SimulatedPath.normalize(rawPath)] else { return nil }
    return UInt64(contents[inode]?.count ?? 0)
  }

  /// `mkdir -p`: each directory made is a pending operation of its parent; one operation
  /// when it creates something.
  mutating func createDirectory(_ rawPath: String, permissions: FilePermissions)
    throws(StoreError)
  {
    let chain = SimulatedPath.ancestry(of: SimulatedPath.normalize(rawPath))
    var created = false
    for directory in chain where !disk.directories.contains(directory) {
      if names[directory] != nil {
        throw StoreError.system("mkdir", .notDirectory, path: rawPath)
      }
      disk.directories.insert(directory)
      disk.pendingDirectoryOperations[SimulatedPath.parent(of: directory), default: []].append(
        .makeDirectory(path: directory))
      self.permissions.directories[directory] = permissions
      created = true
    }
    if created { recordOperation() }
  }

  /// `statvfs(2)`: a large number, or the injected value.
  func freeSpace(_ rawPath: String) throws(StoreError) -> UInt64 {
    let path = SimulatedPath.normalize(rawPath)
    guard disk.directories.contains(path) || names[path] != nil else {
      throw StoreError.system("statvfs", .noSuchFile, path: rawPath)
    }
    return injectedFreeSpace ?? SimulatedDiskState.defaultFreeSpace
  }

  /// `flock(LOCK_EX | LOCK_NB)`: one holder per inode.
  mutating func lock(_ handle: StoreFileHandle) throws(StoreError) {
    let file = try openFile(handle, "flock")
    if let holder = locks[file.inode], holder != handle.descriptor {
      throw StoreError(
        .locked, "\(handle.path) is locked by another handle", path: handle.path,
        syscall: "flock", errno: .resourceTemporarilyUnavailable)
    }
    locks[file.inode] = handle.descriptor
  }
}
