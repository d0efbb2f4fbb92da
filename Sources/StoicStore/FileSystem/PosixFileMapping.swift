import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``FileMapping`` of a real file: the address `mmap(2)` returned and its length.
///
/// A write is a range check and the caller's stores into the mapped bytes, under a lock that
/// only ``close()`` contends for, so a write can never reach memory that was unmapped. Unmapped when closed or when released.
final class PosixFileMapping: FileMapping {
  let length: UInt64
  private let path: String
  /// The mapped address as a bit pattern (an address is not `Sendable`); 0 once unmapped.
  private let base: Mutex<UInt>

  init(base: UnsafeMutableRawPointer, length: UInt64, path: String) {
    self.length = length
    self.path = path
    self.base = Mutex(UInt(bitPattern: base))
  }

  deinit {
    let length = Int(self.length)
    base.withLock { address in
      if let pointer = UnsafeMutableRawPointer(bitPattern: address) { _ = munmap(pointer, length) }
      address = 0
    }
  }

  func write(
    count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError) {
    try checkRange(offset: offset, count: count, path: path)
    guard count > 0 else { return }
    let written = base.withLock { address -> Bool in
      guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return false }
      fill(UnsafeMutableRawBufferPointer(start: pointer + Int(offset), count: count))
      return true
    }
    guard written else {
      throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
    }
  }

  func close() throws(StoreError) {
    let address = base.withLock { address -> UInt in
      defer { address = 0 }
      return address
    }
    guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    try Syscall.run("munmap", path: path) { munmap(pointer, Int(length)) }
  }
}
