import Foundation
import StoicStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects the events a component emits, for assertions.
final class PosixEventRecorder: Sendable {
  private let recorded = SleepingLock<[StoreEvent]>([])

  /// A sink that records into this recorder.
  var sink: EventSink { EventSink { event in self.recorded.withLock { $0.append(event) } } }

  /// What was emitted so far.
  var events: [StoreEvent] { recorded.withLock { $0 } }
}

@Suite("PosixFileSystem: every method against a temporary directory")
struct PosixFileSystemTests {
  let fs = PosixFileSystem()

  @Test("an exclusively created file reads back what was written, whole and by range")
  func roundTrip() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "data")
      let handle = try fs.open(path, .createExclusive)
      let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      try fs.write(handle, bytes, at: 0)
      #expect(try fs.size(handle) == 10_000)
      #expect(try fs.read(handle, count: 10_000, at: 0) == bytes)
      #expect(try fs.read(handle, count: 100, at: 4_000) == Array(bytes[4_000..<4_100]))
      try fs.sync(handle)
      try fs.close(handle)
      #expect(try fs.fileSize(path) == 10_000)
      #expect(try fs.readWholeFile(path) == bytes)
      #expect(try fs.exists(path))
    }
  }

  @Test("a write of several MiB and an overwrite in the middle read back exactly")
  func largeWriteAndOverwrite() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "large")
      let handle = try fs.open(path, .createOrOpen)
      defer { try? fs.close(handle) }
      var bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 9)) }
      try fs.write(handle, bytes, at: 0)
      let patch = [UInt8](repeating: 0xEE, count: 4_097)
      try fs.write(handle, patch, at: 1_000_001)
      bytes.replaceSubrange(1_000_001..<1_000_001 + patch.count, with: patch)
      #expect(try fs.read(handle, count: bytes.count, at: 0) == bytes)
    }
  }

  @Test("a read is short only at the end of the file, and empty past it")
  func shortReadAtEnd() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "ten")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      try fs.write(handle, Array(0..<10), at: 0)
      #expect(try fs.read(handle, count: 100, at: 4) == [4, 5, 6, 7, 8, 9])
      #expect(try fs.read(handle, count: 100, at: 10) == [])
      #expect(try fs.read(handle, count: 5, at: 1_000) == [])
      #expect(try fs.read(handle, count: 0, at: 0) == [])
    }
  }

  @Test("a write past the end leaves a hole of zeros")
  func writePastEndFillsZeros() throws {
    try PosixScratchDirectory.with { directory in
      let handle = try fs.open(StorePath.join(directory, "holes"), .createExclusive)
      defer { try? fs.close(handle) }
      try fs.write(handle, [1, 2], at: 0)
      try fs.write(handle, [9], at: 6)
      #expect(try fs.read(handle, count: 10, at: 0) == [1, 2, 0, 0, 0, 0, 9])
      try fs.write(handle, [], at: 100)
      #expect(try fs.size(handle) == 7)
    }
  }

  @Test("open modes: createOrOpen keeps contents, readWrite and readOnly need the file")
  func openModes() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "modes")
      let first = try fs.open(path, .createOrOpen)
      try fs.write(first, [1, 2, 3], at: 0)
      try fs.close(first)
      let again = try fs.open(path, .createOrOpen)
      #expect(try fs.read(again, count: 3, at: 0) == [1, 2, 3])
      try fs.close(again)
      let reader = try fs.open(path, .readOnly)
      #expect(try fs.read(reader, count: 3, at: 0) == [1, 2, 3])
      let misuse = try #require(throws: StoreError.self) { try fs.write(reader, [0], at: 0) }
      #expect(misuse.errno == .badFileDescriptor)
      #expect(misuse.syscall == "pwrite")
      try fs.close(reader)
      let missing = StorePath.join(directory, "missing")
      for mode in [OpenMode.readOnly, .readWrite] {
        let error = try #require(throws: StoreError.self) { try fs.open(missing, mode) }
        #expect(error.code == .notFound)
      }
    }
  }

  @Test("an exclusive create of an existing file fails with alreadyExists and changes nothing")
  func exclusiveCreateConflict() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "once")
      let handle = try fs.open(path, .createExclusive)
      try fs.write(handle, [7, 7, 7], at: 0)
      try fs.close(handle)
      let error = try #require(throws: StoreError.self) { try fs.open(path, .createExclusive) }
      #expect(error.code == .alreadyExists)
      #expect(error.errno == .fileExists)
      #expect(error.syscall == "open")
      #expect(error.path == path)
      #expect(error.retryDecision == .stop)
      #expect(try fs.readWholeFile(path) == [7, 7, 7])
    }
  }

  @Test("files are created private (0600) and close-on-exec")
  func modeAndCloseOnExec() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "mode")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      #expect(fcntl(handle.descriptor, F_GETFD) & FD_CLOEXEC != 0)
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(info.st_mode & 0o7777 == 0o600)
    }
  }

  @Test("rename replaces the destination atomically and removes the source name")
  func renameReplaces() throws {
    try PosixScratchDirectory.with { directory in
      let source = StorePath.join(directory, "new")
      let destination = StorePath.join(directory, "current")
      try fs.replaceContents(of: source, with: [1, 1, 1, 1])
      try fs.replaceContents(of: destination, with: [2, 2])
      try fs.rename(source, to: destination)
      try fs.syncDirectory(directory)
      #expect(try fs.readWholeFile(destination) == [1, 1, 1, 1])
      #expect(try fs.fileSize(source) == nil)
      #expect(try fs.list(directory) == ["current"])
    }
  }

  @Test("remove unlinks the file; fileSize then answers nil")
  func removeFile() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "gone")
      try fs.replaceContents(of: path, with: [1])
      #expect(try fs.fileSize(path) == 1)
      try fs.remove(path)
      #expect(try fs.fileSize(path) == nil)
      #expect(try !fs.exists(path))
      #expect(try fs.readWholeFile(path) == nil)
      let again = try #require(throws: StoreError.self) { try fs.remove(path) }
      #expect(again.code == .notFound)
      #expect(again.syscall == "unlink")
    }
  }

  @Test("list returns the names sorted, with directories, without . and ..")
  func listSorted() throws {
    try PosixScratchDirectory.with { directory in
      #expect(try fs.list(directory) == [])
      for name in ["b", "c10", "a", "c2", ".hidden", "Z"] {
        try fs.replaceContents(of: StorePath.join(directory, name), with: [0])
      }
      try fs.createDirectory(StorePath.join(directory, "d"))
      #expect(try fs.list(directory) == [".hidden", "Z", "a", "b", "c10", "c2", "d"])
      #expect(try fs.list(directory + "/") == [".hidden", "Z", "a", "b", "c10", "c2", "d"])
    }
  }

  @Test(
    "list sorts as String does: a prefix first, dotted names kept, names beyond ASCII too",
    arguments: [
      ["a", "ab", "a-b", "a.b", "A", "..x", "...", "b", "aa", "a0", "~", "Zz"],
      ["a", "ab", "é", "Ω", "z", "日本", "e", "..x", "A"],
      // A long shared prefix, names that tie in the eight bytes after it, and prefixes of one
      // another on either side of those eight.
      [
        "journal-0000000000000001.log", "journal-0000000000000001.zst",
        "journal-0000000000000001-0000000000000150-150-b70.zst", "journal-000000000000000",
        "journal-0000000000000001", "journal-00000000000000011111111112",
        "journal-00000000000000011111111111", "journal-000000000000000111111111",
        "journal-00000000000000011111111", "journal-0000000000000002.log",
      ],
    ])
  func listSortsAsString(names: [String]) throws {
    try PosixScratchDirectory.with { directory in
      for name in names.reversed() {
        try fs.replaceContents(of: StorePath.join(directory, name), with: [0])
      }
      #expect(try fs.list(directory) == names.sorted())
    }
  }

  @Test("list of a directory with more entries than one readdir buffer returns all of them")
  func listMany() throws {
    try PosixScratchDirectory.with { directory in
      let names = (0..<1_500).map { "entry-\($0)" }
      for name in names {
        let handle = try fs.open(StorePath.join(directory, name), .createExclusive)
        try fs.close(handle)
      }
      #expect(try fs.list(directory) == names.sorted())
    }
  }

  @Test("truncate grows with zeros and shrinks, and size follows")
  func truncateGrowAndShrink() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "cut")
      let handle = try fs.open(path, .createExclusive)
      defer { try? fs.close(handle) }
      try fs.write(handle, [1, 2, 3, 4, 5], at: 0)
      try fs.truncate(handle, to: 2)
      #expect(try fs.size(handle) == 2)
      #expect(try fs.read(handle, count: 10, at: 0) == [1, 2])
      try fs.truncate(handle, to: 6)
      #expect(try fs.size(handle) == 6)
      #expect(try fs.read(handle, count: 10, at: 0) == [1, 2, 0, 0, 0, 0])
      try fs.truncate(handle, to: 0)
      try fs.sync(handle)
      #expect(try fs.fileSize(path) == 0)
    }
  }

  @Test("sync and syncDirectory succeed, and on Linux never report a full-sync fallback")
  func syncs() throws {
    let recorder = PosixEventRecorder()
    let fs = PosixFileSystem(events: recorder.sink)
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "synced")
      let handle = try fs.open(path, .createExclusive)
      try fs.write(handle, [42], at: 0)
      try fs.sync(handle)
      try fs.close(handle)
      try fs.syncDirectory(directory)
      try fs.syncDirectory(directory + "/")
      let notDirectory = try #require(throws: StoreError.self) { try fs.syncDirectory(path) }
      #expect(notDirectory.errno == .notDirectory)
      #expect(notDirectory.syscall == "open")
      let missing = StorePath.join(directory, "missing")
      let notFound = try #require(throws: StoreError.self) { try fs.syncDirectory(missing) }
      #expect(notFound.code == .notFound)
      #expect(notFound.path == missing)
    }
    #if os(Linux)
      #expect(recorder.events.isEmpty)
    #endif
  }

  @Test("createDirectory makes missing parents, accepts an existing directory, refuses a file")
  func createDirectory() throws {
    try PosixScratchDirectory.with { directory in
      let nested = StorePath.join(directory, "a/b/c")
      try fs.createDirectory(nested)
      try fs.createDirectory(nested)
      try fs.createDirectory(nested + "/")
      try fs.createDirectory(StorePath.join(directory, "a//b2"))
      #expect(try fs.list(StorePath.join(directory, "a")) == ["b", "b2"])
      #expect(try fs.list(nested) == [])
      let file = StorePath.join(directory, "file")
      try fs.replaceContents(of: file, with: [1])
      let exists = try #require(throws: StoreError.self) { try fs.createDirectory(file) }
      #expect(exists.code == .alreadyExists)
      #expect(exists.syscall == "mkdir")
      #expect(exists.path == file)
      #expect(exists.retryDecision == .stop)
      let under = try #require(throws: StoreError.self) {
        try fs.createDirectory(StorePath.join(file, "sub"))
      }
      #expect(under.errno == .notDirectory)
      #expect(under.syscall == "mkdir")
      let empty = try #require(throws: StoreError.self) { try fs.createDirectory("") }
      #expect(empty.code == .invalidArgument)
    }
  }

  @Test("freeSpace is positive and never above the file system's size")
  func freeSpace() throws {
    try PosixScratchDirectory.with { directory in
      let free = try fs.freeSpace(directory)
      var info = statvfs()
      #expect(statvfs(directory, &info) == 0)
      #expect(free > 0)
      #expect(free <= UInt64(info.f_blocks) * UInt64(info.f_frsize))
      let error = try #require(throws: StoreError.self) {
        try fs.freeSpace(StorePath.join(directory, "missing"))
      }
      #expect(error.code == .notFound)
      #expect(error.syscall == "statvfs")
    }
  }

  @Test("a second handle on a locked file is refused with locked until the first is closed")
  func lockConflictAndRelease() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "LOCK")
      let first = try fs.open(path, .createOrOpen)
      let second = try fs.open(path, .createOrOpen)
      defer { try? fs.close(second) }
      try fs.lock(first)
      try fs.lock(first)  // taking a lock this handle holds again is allowed
      let error = try #require(throws: StoreError.self) { try fs.lock(second) }
      #expect(error.code == .locked)
      #expect(error.errno == .resourceTemporarilyUnavailable)
      #expect(error.syscall == "flock")
      #expect(error.path == path)
      #expect(error.retryDecision == .retry)
      #expect(error.message.contains(path))
      #expect(error.message.contains("locked"))
      try fs.close(first)
      try fs.lock(second)
    }
  }

  /// A fork between `fork` and `exec` holds the lock for a moment: the opener waits that out.
  @Test("a lock released within the retry window is taken; one held past it is refused")
  func lockWaitsAMomentForAForkedHolder() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "LOCK")
      let holder = try fs.open(path, .createOrOpen)
      let opener = try fs.open(path, .createOrOpen)
      defer { try? fs.close(opener) }
      try fs.lock(holder)
      // Released 50 ms from now, well inside the 200 ms the opener keeps trying.
      let release = Thread {
        usleep(50_000)
        try? PosixFileSystem().close(holder)
      }
      release.start()
      let started = ContinuousClock.now
      try fs.lock(opener)
      #expect(ContinuousClock.now - started >= .milliseconds(40), "it did wait for the release")

      // Held past the window: refused, after it.
      let third = try fs.open(path, .createOrOpen)
      defer { try? fs.close(third) }
      let refusedAt = ContinuousClock.now
      let error = try #require(throws: StoreError.self) { try fs.lock(third) }
      #expect(error.code == .locked)
      let tried = Int64(PosixFileSystem.lockAttempts - 1) * Int64(PosixFileSystem.lockRetryInterval)
      #expect(ContinuousClock.now - refusedAt >= .microseconds(tried))
    }
  }

  /// Whether util-linux's `flock(1)` is here to play the other process (macOS has none).
  static let hasFlockCommand = PosixCommand.run(["flock", "--version"]) == 0

  @Test(
    "the lock conflicts with another process, and is released when the handle closes",
    .enabled(if: hasFlockCommand, "needs the flock(1) command"))
  func lockAcrossProcesses() throws {
    try PosixScratchDirectory.with { directory in
      let path = StorePath.join(directory, "LOCK")
      let handle = try fs.open(path, .createOrOpen)
      try fs.lock(handle)
      let probe = ["flock", "--nonblock", "--conflict-exit-code", "75", path, "true"]
      #expect(PosixCommand.run(probe) == 75)
      try fs.close(handle)
      #expect(PosixCommand.run(probe) == 0)
    }
  }
}

extension FileSystem {
  /// Creates or replaces the file at `path` with `bytes`, for setting up a test.
  fileprivate func replaceContents(of path: String, with bytes: [UInt8]) throws(StoreError) {
    let handle = try open(path, .createOrOpen)
    defer { try? close(handle) }
    try truncate(handle, to: 0)
    try write(handle, bytes, at: 0)
  }
}
