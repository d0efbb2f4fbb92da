import Testing

@testable import StoicStore
@testable import StoicTesting

/// ``FileMapping/release(below:)`` on a real file and on the simulated disk: whole pages below
/// the bound are given back, writes there are refused without calling `fill`, what was written
/// stays in the file (and, on the simulated disk, becomes durable with the next sync), and the
/// bound only grows and never passes the mapping's length.
@Suite("File mappings give back the pages below a bound")
struct FileMappingReleaseTests {
  enum Disk: String, CaseIterable, CustomTestStringConvertible {
    case posix, simulated
    var testDescription: String { rawValue }
  }

  /// Runs `body` with a file system, a new file's path and handle on it, and a mapping of the
  /// file's first three pages.
  func withMapping(
    on disk: Disk, _ body: (any FileSystem, String, StoreFileHandle, any FileMapping) throws -> Void
  ) throws {
    func run(_ fs: any FileSystem, _ path: String) throws {
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      try body(fs, path, handle, try fs.map(handle, length: 3 * 4096))
    }
    switch disk {
    case .posix:
      try PosixScratchDirectory.with { directory in
        try run(PosixFileSystem(), StorePath.join(directory, "mapped"))
      }
    case .simulated:
      let simulated = SimulatedFileSystem()
      try simulated.createDirectoryDurably("/data")
      try run(simulated, "/data/mapped")
    }
  }

  @Test(
    "the bound is rounded down to a page, only grows, and stops at the length",
    arguments: Disk.allCases)
  func bound(_ disk: Disk) throws {
    try withMapping(on: disk) { _, _, _, mapping in
      #expect(mapping.released == 0)
      try mapping.release(below: 4095)
      #expect(mapping.released == 0)
      try mapping.release(below: 4100)
      #expect(mapping.released == 4096)
      try mapping.release(below: 10)
      #expect(mapping.released == 4096)
      try mapping.release(below: 1 << 40)
      #expect(mapping.released == 3 * 4096)
      try mapping.close()
      let closed = try #require(throws: StoreError.self) { try mapping.release(below: 1 << 40) }
      #expect(closed.code == .closed)
    }
  }

  @Test(
    "writes below the bound are refused; the released bytes stay in the file",
    arguments: Disk.allCases)
  func writesAndContents(_ disk: Disk) throws {
    try withMapping(on: disk) { fs, path, handle, mapping in
      let first = [UInt8](repeating: 0x11, count: 100)
      let spanning = [UInt8](repeating: 0x22, count: 10)
      try first.withStoreBytes { (bytes) throws(StoreError) in try mapping.write(bytes, at: 0) }
      try spanning.withStoreBytes { (bytes) throws(StoreError) in
        try mapping.write(bytes, at: 4090)
      }
      try mapping.release(below: 4100)
      var called = false
      let below = try #require(throws: StoreError.self) {
        try mapping.write(count: 2, at: 4095) { _ in called = true }
      }
      #expect(below.code == .invalidArgument)
      #expect(!called)
      try mapping.write(count: 2, at: 4100) { $0.copyBytes(from: [0x33, 0x44]) }
      #expect(try fs.read(handle, count: 100, at: 0) == first)
      #expect(try fs.read(handle, count: 12, at: 4090) == spanning + [0x33, 0x44])
      try fs.sync(handle)
      if let simulated = fs as? SimulatedFileSystem {
        try simulated.syncDirectory("/data")
        let durable = try #require(simulated.durableContents(path))
        #expect(Array(durable[0..<100]) == first)
        #expect(Array(durable[4090..<4102]) == spanning + [0x33, 0x44])
      }
      try mapping.close()
      try mapping.close()
    }
  }
}
