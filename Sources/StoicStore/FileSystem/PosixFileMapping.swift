#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``FileMapping`` of a real file: the address `mmap(2)` returned and its length.
///
/// A write is a range check and the caller's stores into the mapped bytes, under a lock that
/// only ``release(below:)`` and ``close()`` contend for, so a write can never reach memory that
/// was unmapped. Unmapped when closed or deinitialized.
final class PosixFileMapping: FileMapping {
  let length: UInt64
  private let path: String
  private let state: SleepingLock<Region>

  /// What is still mapped: `[released, length)` of the file at `address + released`.
  private struct Region {
    /// The mapped address of offset 0 as a bit pattern (an address is not `Sendable`); 0 once
    /// unmapped.
    var address: UInt
    /// The offset below which the pages were unmapped by `release(below:)`.
    var released: UInt64 = 0
  }

  /// The size of a page, the unit `munmap` works in.
  private static let pageSize = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1))

  init(base: UnsafeMutableRawPointer, length: UInt64, path: String) {
    self.length = length
    self.path = path
    self.state = SleepingLock(Region(address: UInt(bitPattern: base)))
  }

  deinit {
    let length = self.length
    state.withLock { region in
      if let pointer = UnsafeMutableRawPointer(bitPattern: region.address) {
        _ = munmap(pointer + Int(region.released), Int(length - region.released))
      }
      region.address = 0
    }
  }

  var released: UInt64 { state.withLock { $0.released } }

  func write(
    count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError) {
    try state.withLock { (region) throws(StoreError) in
      try checkRange(offset: offset, count: count, released: region.released, path: path)
      guard count > 0 else { return }
      guard let pointer = UnsafeMutableRawPointer(bitPattern: region.address) else {
        throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
      }
      fill(UnsafeMutableRawBufferPointer(start: pointer + Int(offset), count: count))
    }
  }

  func release(below offset: UInt64) throws(StoreError) {
    let bound = releaseBound(below: offset, pageSize: Self.pageSize)
    try state.withLock { (region) throws(StoreError) in
      guard let pointer = UnsafeMutableRawPointer(bitPattern: region.address) else {
        throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
      }
      guard bound > region.released else { return }
      try Syscall.run("munmap", path: path) {
        munmap(pointer + Int(region.released), Int(bound - region.released))
      }
      region.released = bound
    }
  }

  func close() throws(StoreError) {
    let (address, released) = state.withLock { region -> (UInt, UInt64) in
      defer { region.address = 0 }
      return (region.address, region.released)
    }
    guard let pointer = UnsafeMutableRawPointer(bitPattern: address), released < length else {
      return
    }
    try Syscall.run("munmap", path: path) {
      munmap(pointer + Int(released), Int(length - released))
    }
  }
}
