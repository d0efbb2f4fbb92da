/// Bytes `[0, length)` of an open file, mapped shared into memory for writing; made by
/// ``FileSystem/map(_:length:)``.
///
/// A write through a mapping is a positional write without a system call: the bytes go into
/// the kernel's page cache of the file, so every reader of the file sees them at once and they
/// survive a crash of the process; they are durable (survive power loss) only once
/// ``FileSystem/sync(_:)`` on a handle of the same file returns, exactly like a positional
/// write. The disk blocks under the mapping were reserved when it was made, so a write through
/// it cannot run out of space.
///
/// The file must not be cut below ``length`` while it is mapped (on a real disk a write to a
/// page beyond the end of the file kills the process with `SIGBUS`; the simulated disk
/// refuses it with ``StoreError/Code/io``). Writes and ``close()`` must not overlap: the caller
/// serializes them (the journal makes both under its lock).
public protocol FileMapping: AnyObject, Sendable {
  /// How many bytes from the start of the file are mapped.
  var length: UInt64 { get }

  /// Writes `count` bytes into the file at `offset`: `fill` is given those bytes of the mapping
  /// to store into (every byte of them, without reading them first), so a caller encodes
  /// straight into the file with no copy of its own.
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` if `[offset, offset + count)` is not inside
  ///   `[0, length)`; ``StoreError/Code/closed`` after ``close()``. Nothing is written and
  ///   `fill` is not called when it throws.
  func write(
    count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError)

  /// Unmaps the file. What was written stays in the file (durable after the next sync, as
  /// before); later writes throw ``StoreError/Code/closed``. Closing twice does nothing.
  ///
  /// - Throws: ``StoreError`` with the `munmap` errno.
  func close() throws(StoreError)
}

extension FileMapping {
  /// Copies `bytes` into the file at `offset`, through the mapping.
  ///
  /// - Throws: As ``write(count:at:_:)``.
  public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(StoreError) {
    try write(count: bytes.count, at: offset) { target in
      if let source = bytes.baseAddress, let base = target.baseAddress {
        base.copyMemory(from: source, byteCount: bytes.count)
      }
    }
  }

  /// Throws unless `[offset, offset + count)` lies inside `[0, length)`.
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` naming `path`.
  package func checkRange(offset: UInt64, count: Int, path: String) throws(StoreError) {
    guard offset <= length, UInt64(count) <= length - offset else {
      throw StoreError(
        .invalidArgument,
        "mapped write of \(count) bytes at offset \(offset) is outside the \(length) mapped bytes",
        path: path)
    }
  }
}
