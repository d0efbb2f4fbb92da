import CStoicAtomics
import Dispatch
import StoicTesting
import Testing

@testable import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``PosixFileSystem/mapMemory(_:length:)`` on real files: the blocks are reserved and the file
/// extended, stores into the memory are in the file for every reader at once (positional reads
/// and other mappings), and they stay after the handle and the mapping are closed.
@Suite("PosixFileSystem memory mappings")
struct PosixMemoryMappingTests {
  let fs = PosixFileSystem()

  @Test("stores into the mapped memory are read back through another handle and mapping")
  func storesAreInTheFile() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "live")
      let handle = try fs.open(path, .createExclusive)
      try fs.write(handle, [1, 2, 3], at: 0)
      let mapping = try fs.mapMemory(handle, length: 8192)
      try fs.close(handle)
      #expect(mapping.length == 8192)
      #expect(UInt(bitPattern: mapping.baseAddress) % 4096 == 0)
      #expect(mapping.baseAddress.load(fromByteOffset: 1, as: UInt8.self) == 2)
      stoic_atomic_add(mapping.baseAddress + 4096, 41)
      stoic_atomic_add(mapping.baseAddress + 4096, 1)
      let reader = try fs.open(path, .readWrite)
      defer { try? fs.close(reader) }
      #expect(try fs.size(reader) == 8192)
      #expect(try fs.read(reader, count: 8, at: 4096) == [42, 0, 0, 0, 0, 0, 0, 0])
      // A second mapping of the file is the same memory of the kernel.
      let other = try fs.mapMemory(reader, length: 8192)
      stoic_atomic_add(other.baseAddress + 4096, 100)
      #expect(stoic_atomic_load(mapping.baseAddress + 4096) == 142)
      // Blocks are reserved, not just a sparse size.
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(Int(info.st_blocks) * 512 >= 8192)
      try mapping.close()
      try mapping.close()
      try other.close()
      #expect(try fs.read(reader, count: 8, at: 4096) == [142, 0, 0, 0, 0, 0, 0, 0])
    }
  }

  @Test("threads adding into mapped memory at once lose nothing")
  func concurrentAdds() throws {
    try PosixScratchDirectory.with { directory in
      let handle = try fs.open(StorePath.join(directory, "live"), .createExclusive)
      defer { try? fs.close(handle) }
      let mapping = try fs.mapMemory(handle, length: 4096)
      let word = UInt(bitPattern: mapping.baseAddress + 64)
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<100_000 {
          if let pointer = UnsafeMutableRawPointer(bitPattern: word) {
            stoic_atomic_add(pointer, 1)
          }
        }
      }
      #expect(
        try fs.read(handle, count: 8, at: 64) == withUnsafeBytes(of: UInt64(400_000)) { Array($0) })
      try mapping.close()
    }
  }

  @Test("a length of 0 or a read-only handle is refused with a typed error")
  func refused() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "live")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      let zero = try #require(throws: StoreError.self) { try fs.mapMemory(handle, length: 0) }
      #expect(zero.code == .invalidArgument)
      let reader = try fs.open(path, .readOnly)
      defer { try? fs.close(reader) }
      #expect(throws: StoreError.self) { try fs.mapMemory(reader, length: 4096) }
    }
  }

  @Test("a file system that does not map memory keeps the default, which throws unsupported")
  func defaultIsUnsupported() throws {
    // A forwarding file system of the outbox tests that leaves `mapMemory` out.
    let disk: any FileSystem = OutboxRemoveFailingFileSystem(StoicTesting.SimulatedFileSystem())
    let handle = try disk.open("live", .createExclusive)
    defer { try? disk.close(handle) }
    let error = try #require(throws: StoreError.self) {
      try disk.mapMemory(handle, length: 4096)
    }
    #expect(error.code == .unsupported)
  }
}
