public import StoicStore

/// A `StoicStore/FileSystem` that passes every call to another and counts what goes through
/// it: the bytes of positional and mapped writes, the syncs, and the bytes read. Hand it to a
/// spool or a forwarder (or both) to measure what forwarding costs the disk, as bytes written
/// per forwarded record against the record's spooled size, or to a reader to measure what it
/// reads; over a ``SimulatedFileSystem`` in a test, over the real one in a benchmark.
public final class MeteredFileSystem: FileSystem {
  /// What went through the file system since it was made (or last reset).
  public struct Counts: Sendable, Hashable {
    /// Bytes of positional writes and mapped writes.
    public var bytesWritten: UInt64 = 0
    /// File syncs (each writes at least one block).
    public var syncs: UInt64 = 0
    /// Directory syncs.
    public var directorySyncs: UInt64 = 0
    /// Bytes positional reads returned.
    public var bytesRead: UInt64 = 0
    /// Sizes asked for by path (``fileSize(_:)``: a `stat` each on a real disk).
    public var sizeLookups: UInt64 = 0
    /// Files opened.
    public var opens: UInt64 = 0
  }

  /// The file system measured.
  public let base: any FileSystem
  let state = SleepingLock(Counts())

  /// Measures `base`.
  public init(_ base: any FileSystem) {
    self.base = base
  }

  /// The counts so far.
  public var counts: Counts { state.withLock { $0 } }

  /// Sets the counts back to zero and returns what they were.
  @discardableResult
  public func reset() -> Counts {
    state.withLock { counts in
      defer { counts = Counts() }
      return counts
    }
  }

  func count(_ change: (inout Counts) -> Void) { state.withLock { change(&$0) } }

  /// Passes the call to ``base``. Counts the open.
  public func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions)
    throws(StoreError) -> StoreFileHandle
  {
    count { $0.opens += 1 }
    return try base.open(path, mode, permissions: permissions)
  }

  /// Passes the call to ``base``.
  public func close(_ handle: StoreFileHandle) throws(StoreError) { try base.close(handle) }

  /// Passes the call to ``base``. Counts the bytes.
  public func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  ) throws(StoreError) -> Int {
    let read = try base.read(handle, into: buffer, at: offset)
    count { $0.bytesRead += UInt64(max(read, 0)) }
    return read
  }

  /// Passes the call to ``base``. Counts the bytes.
  public func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  {
    try base.write(handle, bytes, at: offset)
    count { $0.bytesWritten += UInt64(bytes.count) }
  }

  /// Passes the call to ``base``. Its writes are counted.
  public func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    MeteredFileMapping(try base.map(handle, length: length), meter: self)
  }

  /// Passes the call to ``base``.
  public func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> any MemoryMapping
  {
    try base.mapMemory(handle, length: length)
  }

  /// Passes the call to ``base``.
  public func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try base.truncate(handle, to: size)
  }

  /// Passes the call to ``base``. Counts the sync.
  public func sync(_ handle: StoreFileHandle) throws(StoreError) {
    try base.sync(handle)
    count { $0.syncs += 1 }
  }

  /// Passes the call to ``base``. Counts the sync.
  public func syncDirectory(_ path: String) throws(StoreError) {
    try base.syncDirectory(path)
    count { $0.directorySyncs += 1 }
  }

  /// Passes the call to ``base``.
  public func rename(_ source: String, to destination: String) throws(StoreError) {
    try base.rename(source, to: destination)
  }

  /// Passes the call to ``base``.
  public func remove(_ path: String) throws(StoreError) { try base.remove(path) }

  /// Passes the call to ``base``.
  public func list(_ directory: String) throws(StoreError) -> [String] {
    try base.list(directory)
  }

  /// Passes the call to ``base``.
  public func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 { try base.size(handle) }

  /// Passes the call to ``base``.
  public func nextData(_ handle: StoreFileHandle, from offset: UInt64) throws(StoreError)
    -> UInt64?
  {
    try base.nextData(handle, from: offset)
  }

  /// Passes the call to ``base``, counted in ``Counts/sizeLookups``.
  public func fileSize(_ path: String) throws(StoreError) -> UInt64? {
    state.withLock { $0.sizeLookups += 1 }
    return try base.fileSize(path)
  }

  /// Passes the call to ``base``.
  public func isSymbolicLink(_ path: String) throws(StoreError) -> Bool {
    try base.isSymbolicLink(path)
  }

  /// Passes the call to ``base``.
  public func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try base.createDirectory(path, permissions: permissions)
  }

  /// Passes the call to ``base``.
  public func freeSpace(_ path: String) throws(StoreError) -> UInt64 {
    try base.freeSpace(path)
  }

  /// Passes the call to ``base``.
  public func lock(_ handle: StoreFileHandle) throws(StoreError) { try base.lock(handle) }
}

/// A mapping of a ``MeteredFileSystem`` that counts the bytes written through it.
final class MeteredFileMapping: FileMapping {
  let base: any FileMapping
  let meter: MeteredFileSystem

  init(_ base: any FileMapping, meter: MeteredFileSystem) {
    self.base = base
    self.meter = meter
  }

  var length: UInt64 { base.length }
  var released: UInt64 { base.released }

  func write(count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void)
    throws(StoreError)
  {
    try base.write(count: count, at: offset, fill)
    meter.count { $0.bytesWritten += UInt64(count) }
  }

  func release(below offset: UInt64) throws(StoreError) { try base.release(below: offset) }

  func close() throws(StoreError) { try base.close() }
}
