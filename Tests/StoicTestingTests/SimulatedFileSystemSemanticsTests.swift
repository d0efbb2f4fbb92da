import StoicStore
import StoicTesting
import Testing

/// The FileSystem door as the running process sees it: errors, listing, sizes, locks and the
/// test helpers.
@Suite struct SimulatedFileSystemSemanticsTests {
  @Test func openOfAMissingFileIsENOENT() throws {
    let disk = SimulatedFileSystem()
    for mode in [OpenMode.readOnly, .readWrite] {
      let error = try #require(throws: StoreError.self) { try disk.open("missing", mode) }
      #expect(error.code == .notFound)
      #expect(error.errno == .noSuchFile)
      #expect(error.syscall == "open")
      #expect(error.path == "missing")
    }
    let noParent = try #require(throws: StoreError.self) {
      try disk.open("no/such/dir/file", .createOrOpen)
    }
    #expect(noParent.errno == .noSuchFile)
    #expect(disk.operationCount == 0)
  }

  @Test func exclusiveCreateOfAnExistingFileIsEEXIST() throws {
    let disk = TestDisk.withDurableFile("file", "x")
    let error = try #require(throws: StoreError.self) { try disk.open("file", .createExclusive) }
    #expect(error.code == .alreadyExists)
    #expect(error.errno == .fileExists)
    #expect(error.syscall == "open")
    let handle = try disk.open("file", .createOrOpen)
    #expect(try disk.size(handle) == 1)
  }

  @Test func renameAndRemoveOfAMissingFileAreENOENT() throws {
    let disk = SimulatedFileSystem()
    let rename = try #require(throws: StoreError.self) { try disk.rename("a", to: "b") }
    #expect(rename.code == .notFound)
    #expect(rename.errno == .noSuchFile)
    #expect(rename.syscall == "rename")
    let remove = try #require(throws: StoreError.self) { try disk.remove("a") }
    #expect(remove.errno == .noSuchFile)
    #expect(remove.syscall == "unlink")
  }

  @Test func closedAndReadOnlyHandlesAreEBADF() throws {
    let disk = TestDisk.withDurableFile("file", "x")
    let reader = try disk.open("file", .readOnly)
    let write = try #require(throws: StoreError.self) {
      try disk.write(reader, Array("y".utf8), at: 0)
    }
    #expect(write.errno == .badFileDescriptor)
    try disk.close(reader)
    let read = try #require(throws: StoreError.self) { try disk.read(reader, count: 1, at: 0) }
    #expect(read.errno == .badFileDescriptor)
    #expect(throws: StoreError.self) { try disk.close(reader) }
  }

  @Test func readsSeeTheCurrentView() throws {
    let disk = SimulatedFileSystem()
    let handle = try disk.open("file", .createOrOpen)
    try disk.write(handle, Array("hello world".utf8), at: 0)
    #expect(try disk.read(handle, count: 5, at: 6) == Array("world".utf8))
    #expect(try disk.read(handle, count: 100, at: 6) == Array("world".utf8))
    #expect(try disk.read(handle, count: 10, at: 50) == [])
    try disk.write(handle, Array("!".utf8), at: 13)
    #expect(disk.contents("file") == Array("hello world".utf8) + [0, 0] + Array("!".utf8))
  }

  @Test func listFileSizeAndRemove() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("store/sub")
    try TestDisk.write("12345", to: "store/b", on: disk)
    try TestDisk.write("1", to: "store/a", on: disk)
    #expect(try disk.list("store") == ["a", "b", "sub"])
    #expect(try disk.list("store/sub") == [])
    #expect(try disk.list(".") == ["store"])
    #expect(try disk.fileSize("store/b") == 5)
    #expect(try disk.fileSize("store/missing") == nil)
    #expect(try disk.fileSize("store/sub") == nil)
    #expect(try disk.exists("./store//a"))
    #expect(disk.allPaths() == ["store/a", "store/b"])
    try disk.remove("store/a")
    #expect(try disk.list("store") == ["b", "sub"])
    let missing = try #require(throws: StoreError.self) { try disk.list("nowhere") }
    #expect(missing.errno == .noSuchFile)
    let directory = try #require(throws: StoreError.self) { try disk.remove("store/sub") }
    #expect(directory.errno == .isDirectory)
  }

  @Test func removedFileStaysWritableThroughItsHandle() throws {
    let disk = SimulatedFileSystem()
    let handle = try disk.open("file", .createOrOpen)
    try disk.remove("file")
    try disk.write(handle, Array("still".utf8), at: 0)
    #expect(try disk.size(handle) == 5)
    #expect(try disk.read(handle, count: 5, at: 0) == Array("still".utf8))
    #expect(disk.allPaths() == [])
  }

  @Test func secondHandleCannotTakeTheLock() throws {
    let disk = TestDisk.withDurableFile("store.lock", "")
    let first = try disk.open("store.lock", .readWrite)
    let second = try disk.open("store.lock", .readWrite)
    try disk.lock(first)
    try disk.lock(first)
    let error = try #require(throws: StoreError.self) { try disk.lock(second) }
    #expect(error.code == .locked)
    #expect(error.retryDecision == .retry)
    try disk.close(first)
    try disk.lock(second)
    // A copy starts without locks.
    let copy = disk.copy()
    try copy.lock(try copy.open("store.lock", .readWrite))
  }

  @Test func operationCountCountsWhatACrashCanSplit() throws {
    let disk = TestDisk.withDurableFile("existing", "x")
    var expected = 0
    #expect(disk.operationCount == expected)
    let reopened = try disk.open("existing", .createOrOpen)
    try disk.close(reopened)
    #expect(disk.operationCount == expected, "opening an existing file is not an operation")
    let handle = try disk.open("new", .createExclusive)
    expected += 1
    try disk.write(handle, Array("x".utf8), at: 0)
    try disk.truncate(handle, to: 0)
    try disk.sync(handle)
    try disk.syncDirectory(".")
    try disk.rename("new", to: "renamed")
    try disk.remove("renamed")
    try disk.createDirectory("dir")
    expected += 7
    #expect(disk.operationCount == expected)
    try disk.createDirectory("dir")
    _ = try disk.list(".")
    _ = try disk.fileSize("existing")
    #expect(disk.operationCount == expected)
  }

  @Test func plantingDamagingSettlingAndCopying() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents("deep/dir/file", Array("abcdef".utf8))
    #expect(try disk.list("deep") == ["dir"])
    disk.damage("deep/dir/file", at: 2, with: [0xFF])
    #expect(disk.durableContents("deep/dir/file") == Array("ab".utf8) + [0xFF] + Array("def".utf8))
    #expect(disk.contents("deep/dir/file") == disk.durableContents("deep/dir/file"))
    #expect(disk.operationCount == 0)

    try TestDisk.write("pending", to: "deep/other", on: disk)
    let copy = disk.copy()
    #expect(TestDisk.text(copy.contents("deep/other")) == "pending")
    #expect(copy.durableContents("deep/other") == nil)
    #expect(copy.pendingOperationCount == disk.pendingOperationCount)
    disk.settle()
    #expect(TestDisk.text(disk.durableContents("deep/other")) == "pending")
    #expect(disk.pendingOperationCount == 0)
    // The copy is independent.
    #expect(copy.durableContents("deep/other") == nil)
  }
}

/// The simulated disk takes the permissions of what it creates, as the real one does, and
/// remembers them for tests without letting them change its crash model.
@Suite struct SimulatedFileSystemPermissionsTests {
  @Test func createdFilesAndDirectoriesKeepThePermissionsAskedFor() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("/data/app")
    try disk.createDirectory("/shared", permissions: .readableByAll.forDirectory)
    #expect(disk.permissions("/data") == .privateDirectory)
    #expect(disk.permissions("/data/app") == .privateDirectory)
    #expect(disk.permissions("/shared") == FilePermissions(rawValue: 0o755))
    try disk.close(try disk.open("/data/app/private", .createExclusive))
    try disk.close(try disk.open("/shared/file", .createOrOpen, permissions: .readableByAll))
    #expect(disk.permissions("/data/app/private") == .privateFile)
    #expect(disk.permissions("/shared/file") == .readableByAll)
    // Opening an existing file again does not change its bits; a rename keeps them.
    try disk.close(try disk.open("/shared/file", .createOrOpen))
    try disk.rename("/shared/file", to: "/shared/renamed")
    #expect(disk.permissions("/shared/renamed") == .readableByAll)
    #expect(disk.permissions("/shared/file") == nil)
    #expect(disk.copy().permissions("/shared/renamed") == .readableByAll)
  }

  @Test func permissionsChangeNoCrashImage() throws {
    // The same operations with different bits give the same crash points and images.
    func images(_ permissions: FilePermissions) -> [String] {
      CrashExplorer().crashImages(
        setup: { disk in try disk.createDirectory("/d", permissions: permissions.forDirectory) },
        operation: { disk, _ in
          let handle = try disk.open("/d/f", .createExclusive, permissions: permissions)
          try disk.write(handle, [1, 2, 3], at: 0)
          try disk.sync(handle)
          try disk.close(handle)
          try disk.syncDirectory("/d")
        },
        at: 2
      ).map(\.description)
    }
    let shared = images(.readableByAll)
    #expect(!shared.isEmpty)
    #expect(shared == images(.privateFile))
  }
}
