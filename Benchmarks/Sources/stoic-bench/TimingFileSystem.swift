import StoicStore

/// The POSIX file system with a stopwatch on the journal's compression of sealed segments;
/// every call is forwarded unchanged.
struct TimingFileSystem: FileSystem {
  let base = PosixFileSystem()
  let timer: CompactionTimer

  func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> FileHandle {
    if mode == .readOnly, path.hasSuffix(".log") { timer.sealedLogOpened() }
    return try base.open(path, mode)
  }

  func sync(_ handle: FileHandle) throws(StoreError) {
    if handle.path.hasSuffix(".zst.tmp") { timer.compressedSyncStarting() }
    try base.sync(handle)
  }

  func close(_ handle: FileHandle) throws(StoreError) { try base.close(handle) }

  func read(_ handle: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64)
    throws(StoreError) -> Int
  {
    try base.read(handle, into: buffer, at: offset)
  }

  func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    try base.write(handle, bytes, at: offset)
  }

  func truncate(_ handle: FileHandle, to size: UInt64) throws(StoreError) {
    try base.truncate(handle, to: size)
  }

  func syncDirectory(_ path: String) throws(StoreError) { try base.syncDirectory(path) }

  func rename(_ source: String, to destination: String) throws(StoreError) {
    try base.rename(source, to: destination)
  }

  func remove(_ path: String) throws(StoreError) { try base.remove(path) }

  func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }

  func size(_ handle: FileHandle) throws(StoreError) -> UInt64 { try base.size(handle) }

  func fileSize(_ path: String) throws(StoreError) -> UInt64? { try base.fileSize(path) }

  func createDirectory(_ path: String) throws(StoreError) { try base.createDirectory(path) }

  func freeSpace(_ path: String) throws(StoreError) -> UInt64 { try base.freeSpace(path) }

  func lock(_ handle: FileHandle) throws(StoreError) { try base.lock(handle) }
}
