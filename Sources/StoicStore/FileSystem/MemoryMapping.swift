/// Bytes `[0, length)` of an open file, mapped shared into memory for reading and writing in
/// place; made by ``FileSystem/mapMemory(_:length:)``.
///
/// Where a ``FileMapping`` lets a caller write a range through a closure, a memory mapping hands
/// out the memory itself, for data that several threads update in place with atomic
/// instructions (a counter in a file, the technique of Prometheus' multiprocess mode). A store
/// into it is a store into the kernel's page cache of the file: every reader of the file sees it
/// at once and it survives a crash of the process the moment the instruction retires, with no
/// system call. Like any write, it is durable (survives power loss) only once
/// ``FileSystem/sync(_:)`` on a handle of the same file returns, and until then the kernel may
/// write any page of it back at any time, so after a power loss the file can hold each page as
/// it was at any moment since the last sync, or torn within a page.
///
/// The disk blocks under the mapping were reserved when it was made, so a store cannot run out
/// of space (a store into an unreserved page of a full disk would kill the process with
/// `SIGBUS`). The file must not be cut below ``length`` while it is mapped.
///
/// ``baseAddress`` stays valid until ``close()`` or until the mapping is released; the caller
/// keeps the mapping alive while anything may still touch the memory.
public protocol MemoryMapping: AnyObject, Sendable {
  /// How many bytes from the start of the file are mapped.
  var length: UInt64 { get }

  /// The address of the file's first byte, aligned to a page: ``length`` bytes from it may be
  /// read and written (8-byte words at 8-byte aligned offsets atomically) until ``close()``.
  var baseAddress: UnsafeMutableRawPointer { get }

  /// Unmaps the file. What was stored stays in the file (durable after the next sync, as
  /// before); the memory must not be touched afterwards. Closing twice does nothing.
  ///
  /// - Throws: ``StoreError`` with the `munmap` errno.
  func close() throws(StoreError)
}

extension FileSystem {
  /// The default for file systems that cannot hand out mapped memory: always throws.
  ///
  /// - Throws: ``StoreError/Code/unsupported``.
  public func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> any MemoryMapping
  {
    throw StoreError(
      .unsupported, "this file system cannot map \(handle.path) into memory", path: handle.path)
  }
}
