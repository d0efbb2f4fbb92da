public import StoicStore

/// The `MemoryMapping` of a ``SimulatedFileSystem``: a page-aligned buffer that starts as the
/// file's bytes and is the running process's view of them.
///
/// Stores into it change nothing on the simulated disk until the kernel could have written
/// them back: at every sync of any file, at a read, write or truncate of the mapped file, and
/// when the mapping is closed, each page that differs from the file becomes one pending write
/// of it, which a crash loses, tears or keeps like any other until the file is synced. So a
/// power cut leaves the file as last synced, with any subset of its changed pages, torn or
/// garbled, exactly as a real kernel's write-back may.
///
/// The buffer is freed when the mapping is released, not at ``close()``, so a stray store after
/// closing is lost rather than a crash of the tests.
public final class SimulatedMemoryMapping: MemoryMapping {
  /// How many bytes from the start of the file are mapped.
  public let length: UInt64
  /// The buffer's first byte.
  nonisolated(unsafe) public let baseAddress: UnsafeMutableRawPointer
  private let fileSystem: SimulatedFileSystem
  private let number: Int

  init(
    fileSystem: SimulatedFileSystem, number: Int, buffer: UnsafeMutableRawPointer,
    length: UInt64
  ) {
    self.fileSystem = fileSystem
    self.number = number
    self.baseAddress = buffer
    self.length = length
  }

  deinit {
    let number = self.number
    fileSystem.state.withLock { $0.unmapMemory(number) }
    baseAddress.deallocate()
  }

  /// Writes the changed pages back as pending writes and forgets the mapping. Closing twice
  /// does nothing.
  public func close() throws(StoreError) {
    let number = self.number
    fileSystem.state.withLock { $0.unmapMemory(number) }
  }
}
