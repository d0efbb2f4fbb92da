extension JournalOpener {
  /// Whether every byte of `[start, end)` of the file is zero: the unused, preallocated tail
  /// of an active segment whose appends went through a mapping. Read in 64 KiB steps.
  func isZeroed(_ handle: StoreFileHandle, from start: UInt64, to end: UInt64) throws(StoreError)
    -> Bool
  {
    var position = start
    while position < end {
      let chunk = try fileSystem.read(
        handle, count: Int(min(64 << 10, end - position)), at: position)
      guard !chunk.isEmpty else { return true }
      guard chunk.allSatisfy({ $0 == 0 }) else { return false }
      position += UInt64(chunk.count)
    }
    return true
  }

  /// Where the run of zeros that ends the range `start ..< end` begins (`end` when its last
  /// byte is not zero): read backwards, a window at a time, so a long preallocated tail costs
  /// a read of its zeros and nothing more.
  func zeroRunStart(_ handle: StoreFileHandle, from start: UInt64, to end: UInt64)
    throws(StoreError) -> UInt64
  {
    var position = end
    while position > start {
      let count = min(64 << 10, position - start)
      let chunk = try fileSystem.read(handle, count: Int(count), at: position - count)
      guard chunk.count == Int(count) else { return position }
      if let last = chunk.lastIndex(where: { $0 != 0 }) {
        return position - count + UInt64(last) + 1
      }
      position -= count
    }
    return start
  }
}
