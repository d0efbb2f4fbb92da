import StoicStore
import StoicTesting
import Testing

/// Injected faults: ENOSPC, fsyncgate, read errors and free space.
@Suite struct SimulatedFileSystemFaultTests {
  @Test func noSpaceFailsTheNthWriteAfterLandingPartialBytes() throws {
    let disk = TestDisk.withDurableFile("file", "")
    let handle = try disk.open("file", .readWrite)
    disk.inject(.noSpaceOnWrite(nth: 2, partialBytes: 3))
    try disk.write(handle, Array("first".utf8), at: 0)
    let error = try #require(throws: StoreError.self) {
      try disk.write(handle, Array("second".utf8), at: 5)
    }
    #expect(error.code == .diskFull)
    #expect(error.errno == .noSpace)
    #expect(error.syscall == "pwrite")
    #expect(error.retryDecision == .stop)
    #expect(TestDisk.text(disk.contents("file")) == "firstsec")
    // The partial bytes are pending like any write.
    #expect(disk.durableContents("file") == [])
    // The fault is spent: the next write succeeds.
    try disk.write(handle, Array("ond".utf8), at: 8)
    #expect(TestDisk.text(disk.contents("file")) == "firstsecond")
  }

  @Test func noSpaceWithoutPartialBytesChangesNothing() throws {
    let disk = TestDisk.withDurableFile("file", "keep")
    let handle = try disk.open("file", .readWrite)
    disk.inject(.noSpaceOnWrite(nth: 1))
    let before = disk.operationCount
    #expect(throws: StoreError.self) { try disk.write(handle, Array("xxxx".utf8), at: 0) }
    #expect(TestDisk.text(disk.contents("file")) == "keep")
    #expect(disk.operationCount == before)
  }

  @Test func failedSyncDropsPendingDataFsyncgate() throws {
    let disk = TestDisk.withDurableFile("file", "durable")
    let handle = try disk.open("file", .readWrite)
    try disk.write(handle, Array("unsynced".utf8), at: 0)
    disk.inject(.ioErrorOnSync(nth: 1))
    let error = try #require(throws: StoreError.self) { try disk.sync(handle) }
    #expect(error.code == .io)
    #expect(error.errno == .ioError)
    #expect(error.syscall == "fsync")
    // The dirty data is gone from the running process's view too.
    #expect(TestDisk.text(disk.contents("file")) == "durable")
    // A later sync succeeds, but the data is not coming back.
    try disk.sync(handle)
    #expect(TestDisk.text(disk.durableContents("file")) == "durable")
    #expect(disk.crashImages(limit: 100).count == 1)
  }

  @Test func syncFaultCountsOnlySyncs() throws {
    let disk = TestDisk.withDurableFile("file", "")
    let handle = try disk.open("file", .readWrite)
    disk.inject(.ioErrorOnSync(nth: 2))
    try disk.write(handle, Array("a".utf8), at: 0)
    try disk.sync(handle)
    try disk.write(handle, Array("b".utf8), at: 1)
    try disk.syncDirectory(".")
    #expect(throws: StoreError.self) { try disk.sync(handle) }
    #expect(TestDisk.text(disk.contents("file")) == "a")
  }

  @Test func readErrorOnPath() throws {
    let disk = TestDisk.withDurableFile("bad", "data")
    disk.setDurableContents("good", Array("fine".utf8))
    disk.inject(.ioErrorOnRead(path: "bad"))
    let error = try #require(throws: StoreError.self) { try disk.readWholeFile("bad") }
    #expect(error.code == .io)
    #expect(error.errno == .ioError)
    #expect(error.syscall == "pread")
    #expect(try TestDisk.text(disk.readWholeFile("good")) == "fine")
    disk.clearFaults()
    #expect(try TestDisk.text(disk.readWholeFile("bad")) == "data")
  }

  @Test func freeSpaceFault() throws {
    let disk = SimulatedFileSystem()
    #expect(try disk.freeSpace(".") >= 1 << 30)
    disk.inject(.freeSpace(100))
    #expect(try disk.freeSpace(".") == 100)
    disk.clearFaults()
    #expect(try disk.freeSpace(".") >= 1 << 30)
    let error = try #require(throws: StoreError.self) { try disk.freeSpace("missing/dir") }
    #expect(error.code == .notFound)
  }

  @Test func faultsAreNotCopied() throws {
    let disk = TestDisk.withDurableFile("file", "")
    disk.inject(.noSpaceOnWrite(nth: 1))
    let copy = disk.copy()
    try TestDisk.write("ok", to: "file", on: copy)
    #expect(TestDisk.text(copy.contents("file")) == "ok")
  }
}
