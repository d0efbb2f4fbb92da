import StoicStore

/// A memory mapping over the overlay: a private, page-aligned copy of the file's first
/// `length` bytes as the overlay holds them (zeros past its end). Stores into it stay in the
/// copy, as every write through the overlay stays in memory; the file on disk is never touched.
/// Enough for what the tool does with one: read a metrics spool's live values as the library
/// would adopt them.
final class OverlayMemoryMapping: MemoryMapping, @unchecked Sendable {
  let length: UInt64
  let baseAddress: UnsafeMutableRawPointer
  /// Whether ``close()`` already gave the memory back (guarded by the lock).
  private let closed = SleepingLock(false)

  /// A copy of `length` bytes made by `fill`, which is handed the zeroed memory.
  init(length: UInt64, fill: (UnsafeMutableRawBufferPointer) throws(StoreError) -> Void)
    throws(StoreError)
  {
    guard let count = Int(exactly: length), count > 0 else {
      throw StoreError(.invalidArgument, "a mapping of \(length) bytes")
    }
    baseAddress = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 4096)
    baseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    self.length = length
    do throws(StoreError) {
      try fill(UnsafeMutableRawBufferPointer(start: baseAddress, count: count))
    } catch {
      baseAddress.deallocate()
      throw error
    }
  }

  deinit {
    if !closed.withLock({ $0 }) { baseAddress.deallocate() }
  }

  /// Gives the copy back; closing twice does nothing.
  func close() throws(StoreError) {
    let first = closed.withLock { closed -> Bool in
      defer { closed = true }
      return !closed
    }
    if first { baseAddress.deallocate() }
  }
}
