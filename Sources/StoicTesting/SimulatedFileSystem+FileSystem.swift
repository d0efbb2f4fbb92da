public import StoicStore

extension SimulatedFileSystem {
  /// Opens (or creates) a file. A create is a pending operation of the parent directory; the
  /// file's `permissions` are remembered (see ``permissions(_:)``) and change nothing else.
  ///
  /// - Throws: `StoreError` from `open`: `ENOENT` (`StoreError.Code.notFound`) for a missing
  ///   file with `.readOnly`/`.readWrite` or a missing parent directory, `EEXIST`
  ///   (`StoreError.Code.alreadyExists`) for `.createExclusive` on an existing file, `EISDIR`
  ///   for a directory.
  public func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    try state.withLock { (state) throws(StoreError) in
      try state.open(path, mode, permissions: permissions)
    }
  }

  /// Closes a handle, releasing its lock. Closing does not sync.
  ///
  /// - Throws: `StoreError` with `EBADF` from `close` when the handle is not open.
  public func close(_ handle: StoreFileHandle) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in try state.close(handle) }
  }

  /// Reads the current contents at `offset`.
  ///
  /// - Throws: `StoreError` from `pread`: `EBADF` for a closed handle, `EIO` when
  ///   ``SimulatedFault/ioErrorOnRead(path:)`` is injected for the file.
  public func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  ) throws(StoreError) -> Int {
    try state.withLock { (state) throws(StoreError) in
      state.captureMemory(inode: state.handles[handle.descriptor]?.inode ?? 0)
      return try state.read(handle, into: buffer, at: offset)
    }
  }

  /// Writes `bytes` at `offset` as a pending write of the file (lost, torn or garbled by a
  /// crash until ``sync(_:)``).
  ///
  /// - Throws: `StoreError` from `pwrite`: `EBADF` for a closed or read-only handle, `ENOSPC`
  ///   when ``SimulatedFault/noSpaceOnWrite(nth:partialBytes:)`` fires (after landing the
  ///   partial bytes).
  public func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    let copied = [UInt8](bytes)
    try state.withLock { (state) throws(StoreError) in
      let inode = state.handles[handle.descriptor]?.inode ?? 0
      state.captureMemory(inode: inode)
      try state.write(handle, copied, at: offset)
      state.storeIntoMemory(inode: inode, copied, at: Int(offset))
    }
  }

  /// Maps the file's first `length` bytes: a file shorter than that is extended with a pending
  /// zero-extending truncate (durable after ``sync(_:)``), and every write through the
  /// returned ``SimulatedFileMapping`` is a pending write of the file.
  ///
  /// - Throws: `StoreError`: `EBADF` from `mmap` for a closed handle, `EACCES` for a read-only
  ///   one, `EINVAL` for a length of 0; `ENOSPC` from `posix_fallocate` when
  ///   ``SimulatedFault/noSpaceOnMap(nth:)`` fires.
  public func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    let number = try state.withLock { (state) throws(StoreError) in
      try state.map(handle, length: length)
    }
    return SimulatedFileMapping(fileSystem: self, number: number, length: length, path: handle.path)
  }

  /// Maps the file's first `length` bytes as a buffer of memory (see
  /// ``SimulatedMemoryMapping``): a file shorter than that is extended with a pending
  /// zero-extending truncate (durable after ``sync(_:)``).
  ///
  /// - Throws: As ``map(_:length:)``.
  public func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> any MemoryMapping
  {
    let (number, buffer) = try state.withLock { (state) throws(StoreError) in
      try state.mapMemory(handle, length: length)
    }
    return SimulatedMemoryMapping(
      fileSystem: self, number: number, buffer: buffer, length: length)
  }

  /// Sets the file's size as a pending truncate (cutting or zero-extending).
  ///
  /// - Throws: `StoreError` from `ftruncate`: `EBADF` for a closed handle, `EINVAL` for a
  ///   read-only one.
  public func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in
      state.captureMemory(inode: state.handles[handle.descriptor]?.inode ?? 0)
      try state.truncate(handle, to: size)
    }
  }

  /// Makes the file's pending writes and truncates durable. First, the changed pages of every
  /// memory mapping become pending writes (see ``SimulatedMemoryMapping``).
  ///
  /// - Throws: `StoreError` from `fsync`: `EBADF` for a closed handle; `EIO` when
  ///   ``SimulatedFault/ioErrorOnSync(nth:)`` fires, after dropping the pending operations.
  public func sync(_ handle: StoreFileHandle) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in
      state.captureMemory()
      try state.sync(handle)
    }
  }

  /// Makes the directory's pending creates, renames, removes and made directories durable.
  ///
  /// - Throws: `StoreError` from `open` with `ENOENT` when the directory does not exist.
  public func syncDirectory(_ path: String) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in try state.syncDirectory(path) }
  }

  /// Renames a file, replacing any file at `destination`; pending in the destination's
  /// directory. Renaming a file to itself does nothing.
  ///
  /// - Throws: `StoreError` from `rename`: `ENOENT` for a missing source or destination
  ///   directory, `EISDIR` for a directory.
  public func rename(_ source: String, to destination: String) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in try state.rename(source, to: destination) }
  }

  /// Removes a file's name; pending in its directory. Open handles keep working.
  ///
  /// - Throws: `StoreError` from `unlink`: `ENOENT` for a missing file, `EISDIR` for a
  ///   directory.
  public func remove(_ path: String) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in try state.remove(path) }
  }

  /// The sorted names of the files and directories in `directory` (current view).
  ///
  /// - Throws: `StoreError` from `opendir` with `ENOENT` for a missing directory.
  public func list(_ directory: String) throws(StoreError) -> [String] {
    try state.withLock { (state) throws(StoreError) in try state.list(directory) }
  }

  /// The current size of the open file.
  ///
  /// - Throws: `StoreError` from `fstat` with `EBADF` for a closed handle.
  public func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 {
    try state.withLock { (state) throws(StoreError) in try state.size(handle) }
  }

  /// The current size of the file at `path`, or nil when no file is there (directories
  /// included). Never throws.
  public func fileSize(_ path: String) throws(StoreError) -> UInt64? {
    state.withLock { $0.fileSize(path) }
  }

  /// Creates a directory and its missing parents. Each directory made is a pending operation
  /// of its parent, like a file's create: durable once the parent is synced, and until then
  /// lost, with everything in it, by a crash that loses it. The `permissions` of each one
  /// created are remembered (see ``permissions(_:)``).
  ///
  /// - Throws: `StoreError` from `mkdir` with `ENOTDIR` when a file is in the way.
  public func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in
      try state.createDirectory(path, permissions: permissions)
    }
  }

  /// 1 TiB, or the bytes a ``SimulatedFault/freeSpace(_:)`` fault sets.
  ///
  /// - Throws: `StoreError` from `statvfs` with `ENOENT` when nothing is at `path`.
  public func freeSpace(_ path: String) throws(StoreError) -> UInt64 {
    try state.withLock { (state) throws(StoreError) in try state.freeSpace(path) }
  }

  /// Takes the file's exclusive advisory lock (one holder per file; released by closing the
  /// handle; a crash image starts with no locks).
  ///
  /// - Throws: `StoreError` with code `StoreError.Code.locked` (`flock`, `EAGAIN`) when
  ///   another handle holds it, `EBADF` for a closed handle.
  public func lock(_ handle: StoreFileHandle) throws(StoreError) {
    try state.withLock { (state) throws(StoreError) in try state.lock(handle) }
  }
}
