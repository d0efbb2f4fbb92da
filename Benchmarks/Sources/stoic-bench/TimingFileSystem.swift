import StoicStore

/// The POSIX file system with a stopwatch on every call (see ``FileSystemProfile``); every call
/// is forwarded unchanged.
struct TimingFileSystem: FileSystem {
  let base = PosixFileSystem()
  let profile: FileSystemProfile

  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoreFileHandle
  {
    if mode == .readOnly, path.hasSuffix(".log") { profile.compressionStarted() }
    return try profile.measure(.other) { () throws(StoreError) in
      try base.open(path, mode, permissions: permissions)
    }
  }

  func sync(_ handle: StoreFileHandle) throws(StoreError) {
    if handle.path.hasSuffix(".zst.tmp") { profile.compressionFinished() }
    try profile.measure(.sync) { () throws(StoreError) in try base.sync(handle) }
  }

  func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    try profile.measure(.write) { () throws(StoreError) in try base.write(handle, bytes, at: offset)
    }
  }

  func syncDirectory(_ path: String) throws(StoreError) {
    try profile.measure(.directorySync) { () throws(StoreError) in try base.syncDirectory(path) }
  }

  func close(_ handle: StoreFileHandle) throws(StoreError) {
    try profile.measure(.other) { () throws(StoreError) in try base.close(handle) }
  }

  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  )
    throws(StoreError) -> Int
  {
    try profile.measure(.other) { () throws(StoreError) in
      try base.read(handle, into: buffer, at: offset)
    }
  }

  func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    try profile.measure(.other) { () throws(StoreError) in try base.map(handle, length: length) }
  }

  func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try profile.measure(.other) { () throws(StoreError) in try base.truncate(handle, to: size) }
  }

  func rename(_ source: String, to destination: String) throws(StoreError) {
    try profile.measure(.other) { () throws(StoreError) in
      try base.rename(source, to: destination)
    }
  }

  func remove(_ path: String) throws(StoreError) {
    try profile.measure(.other) { () throws(StoreError) in try base.remove(path) }
  }

  func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }

  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 { try base.size(handle) }

  func fileSize(_ path: String) throws(StoreError) -> UInt64? { try base.fileSize(path) }

  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try base.createDirectory(path, permissions: permissions)
  }

  func freeSpace(_ path: String) throws(StoreError) -> UInt64 { try base.freeSpace(path) }

  func lock(_ handle: StoreFileHandle) throws(StoreError) { try base.lock(handle) }
}
