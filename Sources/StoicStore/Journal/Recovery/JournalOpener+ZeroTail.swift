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
}
