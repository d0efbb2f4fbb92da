#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PosixFileSystem {
  /// Reserves the blocks of `[0, length)` and maps them `MAP_SHARED`, `PROT_READ | PROT_WRITE`.
  ///
  /// Linux: `posix_fallocate(2)` reserves the blocks (and extends the file), so a write through
  /// the mapping can never meet a full disk as `SIGBUS`. Elsewhere the extension is written
  /// with zeros through `pwrite`, which reserves the blocks as surely. Then `mmap(2)`.
  ///
  /// - Throws: ``StoreError`` with the `posix_fallocate` (or `pwrite`) errno, e.g.
  ///   ``StoreError/Code/diskFull``, or the `mmap` errno (`ENODEV` where the file system cannot
  ///   map files); ``StoreError/Code/invalidArgument`` for a length of 0 or beyond the address
  ///   space.
  public func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    let base = try mapShared(handle, length: length)
    return PosixFileMapping(base: base, length: length, path: handle.path)
  }

  /// Reserves the blocks of `[0, length)` and maps them `MAP_SHARED`, `PROT_READ | PROT_WRITE`,
  /// exactly as ``map(_:length:)`` does, handing out the memory.
  ///
  /// - Throws: As ``map(_:length:)``.
  public func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> any MemoryMapping
  {
    let base = try mapShared(handle, length: length)
    return PosixMemoryMapping(base: base, length: length, path: handle.path)
  }

  /// Reserves the blocks of `[0, length)` and maps them shared for reading and writing.
  private func mapShared(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> UnsafeMutableRawPointer
  {
    guard length > 0, length <= UInt64(Int.max / 2) else {
      throw StoreError(
        .invalidArgument, "cannot map \(length) bytes of \(handle.path)", path: handle.path)
    }
    try reserve(handle, length: length)
    return try Syscall.mapping("mmap", path: handle.path) {
      mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, handle.descriptor, 0)
    }
  }

  /// Makes sure the disk blocks of `[0, length)` are allocated, extending the file if needed.
  private func reserve(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) {
    let size = try Self.fileOffset(length, plus: 0, path: handle.path)
    #if os(Linux)
      try Syscall.runReturningErrno("posix_fallocate", path: handle.path) {
        posix_fallocate(handle.descriptor, 0, size)
      }
    #else
      let current = try self.size(handle)
      guard current < length else { return }
      let zeros = [UInt8](repeating: 0, count: 1 << 16)
      var offset = current
      while offset < UInt64(size) {
        let count = Int(min(UInt64(zeros.count), UInt64(size) - offset))
        try zeros.withStoreBytes { (bytes) throws(StoreError) in
          try write(handle, UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: offset)
        }
        offset += UInt64(count)
      }
    #endif
  }
}
