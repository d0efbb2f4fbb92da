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
/// A caller that will not write below some offset again gives those pages back with
/// ``release(below:)`` before it syncs: a sync write-protects every mapped dirty page it writes
/// back, which on a machine where other threads of the process run at the same time costs an
/// interrupt of each of their processors per page, and a page that is no longer mapped costs
/// nothing.
///
/// The file must not be cut below ``length`` while it is mapped (on a real disk a write to a
/// page beyond the end of the file kills the process with `SIGBUS`; the simulated disk
/// refuses it with ``StoreError/Code/io``). Writes and ``close()`` must not overlap: the caller
/// serializes them (the journal makes both under its lock).
public protocol FileMapping: AnyObject, Sendable {
  /// How many bytes from the start of the file are mapped.
  var length: UInt64 { get }

  /// The offset below which the mapping was given back by ``release(below:)``: a multiple of
  /// the page size, 0 until then.
  var released: UInt64 { get }

  /// Writes `count` bytes into the file at `offset`: `fill` is given those bytes of the mapping
  /// to store into (every byte of them, without reading them first), so a caller encodes
  /// straight into the file with no copy of its own.
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` if `[offset, offset + count)` is not inside
  ///   `[released, length)`; ``StoreError/Code/closed`` after ``close()``. Nothing is written
  ///   and `fill` is not called when it throws.
  func write(
    count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError)

  /// Unmaps the whole pages below `offset` (rounded down to a page; at most ``length``), so
  /// that a sync no longer has to write-protect them. What was written there stays in the file
  /// and is made durable by the next sync as before; later writes below ``released`` are
  /// refused. A bound at or below ``released`` does nothing.
  ///
  /// - Throws: ``StoreError`` with the `munmap` errno (the pages then stay mapped and
  ///   ``released`` is unchanged); ``StoreError/Code/closed`` after ``close()``.
  func release(below offset: UInt64) throws(StoreError)

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

  /// Throws unless `[offset, offset + count)` lies inside `[released, length)`, where
  /// `released` is the bound given (the mapping's own ``released`` is read under its lock by
  /// the caller).
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` naming `path`.
  package func checkRange(offset: UInt64, count: Int, released: UInt64, path: String)
    throws(StoreError)
  {
    guard offset >= released, offset <= length, UInt64(count) <= length - offset else {
      throw StoreError(
        .invalidArgument,
        "mapped write of \(count) bytes at offset \(offset) is outside the mapped bytes "
          + "[\(released), \(length))",
        path: path)
    }
  }

  /// `offset` rounded down to a multiple of `pageSize` and capped at ``length`` rounded down
  /// the same way: the end of the whole pages ``release(below:)`` gives back.
  package func releaseBound(below offset: UInt64, pageSize: UInt64) -> UInt64 {
    min(offset, length) / pageSize * pageSize
  }
}
