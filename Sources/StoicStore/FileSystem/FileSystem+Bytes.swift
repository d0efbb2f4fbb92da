extension FileSystem {
  /// Writes all of `bytes` at `offset`. See ``FileSystem/write(_:_:at:)``.
  public func write(_ handle: StoreFileHandle, _ bytes: [UInt8], at offset: UInt64)
    throws(StoreError)
  {
    try bytes.withStoreBytes { (buffer) throws(StoreError) in
      try write(handle, buffer, at: offset)
    }
  }

  /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
  public func read(_ handle: StoreFileHandle, count: Int, at offset: UInt64) throws(StoreError)
    -> [UInt8]
  {
    var failure: StoreError?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(StoreError) {
        initialized = try read(handle, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// Reads a whole file, or returns `nil` when nothing is at `path`.
  public func readWholeFile(_ path: String) throws(StoreError) -> [UInt8]? {
    guard try fileSize(path) != nil else { return nil }
    let handle = try open(path, .readOnly)
    defer { try? close(handle) }
    let size = try self.size(handle)
    guard size <= UInt64(Int.max) else {
      throw StoreError(.invalidArgument, "file is too large to read whole", path: path)
    }
    return try read(handle, count: Int(size), at: 0)
  }

  /// Whether a file exists at `path`.
  public func exists(_ path: String) throws(StoreError) -> Bool {
    try fileSize(path) != nil
  }
}
