#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``MemoryMapping`` of a real file: the address `mmap(2)` returned and its length, unmapped
/// when closed or deinitialized.
final class PosixMemoryMapping: MemoryMapping {
  let length: UInt64
  /// The mapped address; only `close()` and `deinit` unmap it, once.
  nonisolated(unsafe) let baseAddress: UnsafeMutableRawPointer
  private let path: String
  /// Whether the pages are still mapped: set to false by the first ``close()``.
  private let mapped = SleepingLock(true)

  init(base: UnsafeMutableRawPointer, length: UInt64, path: String) {
    self.baseAddress = base
    self.length = length
    self.path = path
  }

  deinit {
    if mapped.withLock({ $0 }) { _ = munmap(baseAddress, Int(length)) }
  }

  func close() throws(StoreError) {
    let wasMapped = mapped.withLock { state -> Bool in
      defer { state = false }
      return state
    }
    guard wasMapped else { return }
    try Syscall.run("munmap", path: path) { munmap(baseAddress, Int(length)) }
  }
}
