import Testing

@testable import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``PosixFileSystem/map(_:length:)`` on real files: the blocks are reserved and the file
/// extended, writes through the mapping are in the file for every reader at once, the range
/// and the closed state are refused with typed errors, and a full disk is reported by the
/// reservation, never as `SIGBUS`.
@Suite("PosixFileSystem mappings")
struct PosixFileMappingTests {
  let fs = PosixFileSystem()

  @Test("a mapping extends the file, and its writes are read back through another handle")
  func writesAreInTheFile() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "mapped")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      try fs.write(handle, [1, 2, 3], at: 0)
      let mapping = try fs.map(handle, length: 8192)
      #expect(mapping.length == 8192)
      #expect(try fs.size(handle) == 8192)
      try [9, 8, 7, 6].withStoreBytes { (bytes) throws(StoreError) in
        try mapping.write(bytes, at: 4094)
      }
      try mapping.write(count: 2, at: 8190) { $0.copyBytes(from: [0xAA, 0xBB]) }
      let reader = try fs.open(path, .readOnly)
      defer { try? fs.close(reader) }
      #expect(try fs.read(reader, count: 3, at: 0) == [1, 2, 3])
      #expect(try fs.read(reader, count: 4, at: 4094) == [9, 8, 7, 6])
      #expect(try fs.read(reader, count: 2, at: 8190) == [0xAA, 0xBB])
      #expect(try fs.read(reader, count: 8, at: 100) == [UInt8](repeating: 0, count: 8))
      // Blocks are reserved, not just a sparse size.
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(Int(info.st_blocks) * 512 >= 8192)
      try mapping.close()
      try mapping.close()
    }
  }

  @Test("a write outside the mapping or after close is refused, and nothing is written")
  func rangeAndClosedAreRefused() throws {
    try PosixScratchDirectory.with { directory in
      let handle = try fs.open(StorePath.join(directory, "mapped"), .createExclusive)
      defer { try? fs.close(handle) }
      let mapping = try fs.map(handle, length: 4096)
      var called = false
      let outside = try #require(throws: StoreError.self) {
        try mapping.write(count: 8, at: 4092) { _ in called = true }
      }
      #expect(outside.code == .invalidArgument)
      let beyond = try #require(throws: StoreError.self) {
        try mapping.write(count: 1, at: UInt64.max) { _ in called = true }
      }
      #expect(beyond.code == .invalidArgument)
      try mapping.close()
      let closed = try #require(throws: StoreError.self) {
        try mapping.write(count: 1, at: 0) { _ in called = true }
      }
      #expect(closed.code == .closed)
      #expect(!called)
      #expect(try fs.read(handle, count: 4096, at: 0) == [UInt8](repeating: 0, count: 4096))
    }
  }

  @Test("a length of 0 is refused; a read-only handle cannot be mapped")
  func badArguments() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "mapped")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      let zero = try #require(throws: StoreError.self) { try fs.map(handle, length: 0) }
      #expect(zero.code == .invalidArgument)
      let reader = try fs.open(path, .readOnly)
      defer { try? fs.close(reader) }
      let readOnly = try #require(throws: StoreError.self) { try fs.map(reader, length: 4096) }
      #expect(readOnly.syscall == "posix_fallocate")
      #expect(try fs.size(handle) == 0)
    }
  }

  @Test(
    "ENOSPC: a mapping larger than a 64 KiB tmpfs is refused by the reservation",
    .enabled(if: PosixTmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func noSpaceToReserve() throws {
    try PosixTmpfs.withMount(options: "size=64k") { directory in
      let path = StorePath.join(directory, "mapped")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      let error = try #require(throws: StoreError.self) { try fs.map(handle, length: 1 << 20) }
      #expect(error.code == .diskFull)
      #expect(error.errno == .noSpace)
      #expect(error.syscall == "posix_fallocate")
      #expect(error.path == path)
      // What fits can still be mapped and written.
      let mapping = try fs.map(handle, length: 16 << 10)
      try mapping.write(count: 4, at: 100) { $0.copyBytes(from: [1, 2, 3, 4]) }
      #expect(try fs.read(handle, count: 4, at: 100) == [1, 2, 3, 4])
      try mapping.close()
    }
  }

  @Test(
    "a journal on a full tmpfs falls back to positional writes and reports the full disk",
    .enabled(if: PosixTmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func journalOnAFullDisk() throws {
    try PosixTmpfs.withMount(options: "size=64k") { directory in
      let events = EventRecorder()
      let journal = try Journal.open(
        directory: StorePath.join(directory, "journal"), fileSystem: fs,
        options: JournalOptions(segmentSize: 1 << 20), events: events.sink)
      var appended = 0
      var failure: StoreError?
      let payload = [UInt8](repeating: 0x5A, count: 1000)
      while failure == nil, appended < 1000 {
        do throws(StoreError) {
          try journal.append(payload)
          appended += 1
        } catch {
          failure = error
        }
      }
      #expect(failure?.code == .diskFull)
      #expect(appended > 10)
      #expect(events.names.contains(StoreEvents.journalMappingUnavailable.name))
      try? journal.close()
      let reopened = try Journal.open(
        directory: StorePath.join(directory, "journal"), fileSystem: fs,
        options: JournalOptions(segmentSize: 1 << 20))
      #expect(try reopened.records().count == appended)
      try reopened.close()
    }
  }
}
