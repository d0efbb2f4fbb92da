extension UnsafeRawBufferPointer {
  /// Whether every byte is below 0x80 (ASCII, so valid UTF-8 as it is): eight bytes at a time,
  /// the last word overlapping the one before it, and a short run in two or three loads, with no
  /// loop over single bytes. The decoders' check before a full UTF-8 validation, on the
  /// forwarder's path for every string of every record (most are short).
  @inlinable package var isASCII: Bool {
    guard let base = baseAddress else { return true }
    let count = self.count
    if count >= 8 {
      var seen: UInt64 = 0
      var index = 0
      while count - index > 8 {
        seen |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      seen |= base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      return seen & 0x8080_8080_8080_8080 == 0
    }
    if count >= 4 {
      let seen =
        base.loadUnaligned(as: UInt32.self)
        | base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      return seen & 0x8080_8080 == 0
    }
    guard count > 0 else { return true }
    let seen =
      base.load(as: UInt8.self) | base.load(fromByteOffset: count / 2, as: UInt8.self)
      | base.load(fromByteOffset: count - 1, as: UInt8.self)
    return seen < 0x80
  }
}
