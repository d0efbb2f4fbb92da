import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file system that passes everything on to another and counts the file syncs; each sync can
/// be made to last at least `syncDelay` microseconds (a slow disk, so that concurrent durable
/// appenders meet while one syncs), and a test can run code inside a sync (``onSync``).
final class SyncCountingFileSystem: FileSystem {
  let base: any FileSystem
  let syncDelay: UInt32
  private let syncs = Atomic<Int>(0)
  private let hook = SleepingLock<(@Sendable (StoreFileHandle) -> Void)?>(nil)

  /// Called with the handle at the start of every file sync, on the syncing thread.
  var onSync: (@Sendable (StoreFileHandle) -> Void)? {
    get { hook.withLock { $0 } }
    set { hook.withLock { $0 = newValue } }
  }

  init(_ base: any FileSystem, syncDelay: UInt32 = 0) {
    self.base = base
    self.syncDelay = syncDelay
  }

  /// File syncs so far.
  var syncCount: Int { syncs.load(ordering: .relaxed) }

  func sync(_ handle: StoreFileHandle) throws(StoreError) {
    syncs.add(1, ordering: .relaxed)
    onSync?(handle)
    if syncDelay > 0 { usleep(syncDelay) }
    try base.sync(handle)
  }

  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoreFileHandle
  { try base.open(path, mode, permissions: permissions) }
  func close(_ handle: StoreFileHandle) throws(StoreError) { try base.close(handle) }
  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  )
    throws(StoreError) -> Int
  { try base.read(handle, into: buffer, at: offset) }
  func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  { try base.write(handle, bytes, at: offset) }
  func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    try base.map(handle, length: length)
  }
  func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try base.truncate(handle, to: size)
  }
  func syncDirectory(_ path: String) throws(StoreError) { try base.syncDirectory(path) }
  func rename(_ source: String, to destination: String) throws(StoreError) {
    try base.rename(source, to: destination)
  }
  func remove(_ path: String) throws(StoreError) { try base.remove(path) }
  func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }
  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 { try base.size(handle) }
  func fileSize(_ path: String) throws(StoreError) -> UInt64? { try base.fileSize(path) }
  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try base.createDirectory(path, permissions: permissions)
  }
  func freeSpace(_ path: String) throws(StoreError) -> UInt64 { try base.freeSpace(path) }
  func lock(_ handle: StoreFileHandle) throws(StoreError) { try base.lock(handle) }
}
