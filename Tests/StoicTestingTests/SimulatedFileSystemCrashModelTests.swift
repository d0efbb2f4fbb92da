import StoicStore
import StoicTesting
import Testing

/// The crash model: what survives a crash and what a crash image can hold.
@Suite struct SimulatedFileSystemCrashModelTests {
  @Test func unsyncedWriteIsLostInTheDurableOnlyImage() throws {
    let disk = TestDisk.withDurableFile("data", "old")
    try TestDisk.write("new", to: "data", on: disk)
    #expect(TestDisk.text(disk.contents("data")) == "new")
    #expect(TestDisk.text(disk.durableContents("data")) == "old")
    #expect(TestDisk.text(disk.crashedDurableOnly().contents("data")) == "old")
    let images = disk.crashImages(limit: 1000)
    #expect(images.first?.files["data"] == Array("old".utf8))
    #expect(TestDisk.variants(of: "data", in: images).contains(Array("new".utf8)))
  }

  @Test func syncedWriteSurvivesEveryImage() throws {
    let disk = TestDisk.withDurableFile("data", "old")
    let handle = try disk.open("data", .readWrite)
    try disk.write(handle, Array("new".utf8), at: 0)
    try disk.sync(handle)
    #expect(TestDisk.text(disk.durableContents("data")) == "new")
    #expect(TestDisk.text(disk.crashedDurableOnly().contents("data")) == "new")
    let images = disk.crashImages(limit: 1000)
    #expect(images.count == 1)
    #expect(TestDisk.variants(of: "data", in: images) == [Array("new".utf8)])
  }

  @Test func createWithoutDirectorySyncCanVanish() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("dir")
    try disk.syncDirectory(".")
    let handle = try disk.open("dir/file", .createExclusive)
    try disk.write(handle, Array("data".utf8), at: 0)
    try disk.sync(handle)
    #expect(disk.durableContents("dir/file") == nil)
    #expect(disk.crashedDurableOnly().contents("dir/file") == nil)
    let images = disk.crashImages(limit: 1000)
    let variants = TestDisk.variants(of: "dir/file", in: images)
    #expect(variants == [nil, Array("data".utf8)])

    try disk.syncDirectory("dir")
    #expect(TestDisk.text(disk.durableContents("dir/file")) == "data")
    #expect(disk.crashImages(limit: 1000).count == 1)
  }

  @Test func madeDirectoryIsPendingUntilItsParentIsSynced() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("a/b")
    let handle = try disk.open("a/b/file", .createExclusive)
    try disk.write(handle, Array("data".utf8), at: 0)
    try disk.sync(handle)
    try disk.syncDirectory("a/b")
    // The file and its name are synced, but "a" and "a/b" are not yet names of their parents.
    #expect(disk.allDirectories() == [".", "/", "a", "a/b"])
    #expect(disk.durableContents("a/b/file") == nil)
    let crashed = disk.crashedDurableOnly()
    #expect(crashed.allDirectories() == [".", "/"])
    #expect(crashed.contents("a/b/file") == nil)
    #expect(throws: StoreError.self) { try crashed.list("a") }
    let images = disk.crashImages(limit: 1000)
    #expect(TestDisk.variants(of: "a/b/file", in: images) == [nil, Array("data".utf8)])
    // Directories without their parent are not in any image, and a file is only where its
    // directory is.
    for image in images {
      #expect(!image.directories.contains("a/b") || image.directories.contains("a"), "\(image)")
      #expect(image.files["a/b/file"] == nil || image.directories.contains("a/b"), "\(image)")
    }
    #expect(images.contains { $0.directories.contains("a") && !$0.directories.contains("a/b") })
    #expect(images.contains { $0.description.contains("mkdir a/b lost") })

    // Syncing the root makes "a" durable; "a/b" can still vanish until "a" is synced.
    try disk.syncDirectory(".")
    #expect(disk.crashedDurableOnly().allDirectories() == [".", "/", "a"])
    #expect(TestDisk.variants(of: "a/b/file", in: disk.crashImages(limit: 1000)).contains(nil))
    try disk.syncDirectory("a")
    #expect(TestDisk.text(disk.durableContents("a/b/file")) == "data")
    #expect(disk.crashImages(limit: 1000).count == 1)
    #expect(disk.pendingOperationCount == 0)
  }

  @Test func madeDirectoriesAreOperationsAndSettleOrPlantDurably() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("x/y")
    #expect(disk.operationCount == 1, "one mkdir -p is one crash point")
    #expect(disk.pendingOperationCount == 2, "each level made is pending in its parent")
    disk.setDurableContents("x/y/planted", Array("p".utf8))
    #expect(disk.pendingOperationCount == 0, "planting a file makes its directories durable")
    #expect(TestDisk.text(disk.crashedDurableOnly().contents("x/y/planted")) == "p")

    try disk.createDirectory("other")
    #expect(disk.crashedDurableOnly().allDirectories() == [".", "/", "x", "x/y"])
    disk.settle()
    #expect(disk.crashedDurableOnly().allDirectories() == [".", "/", "other", "x", "x/y"])
  }

  @Test func syncingTheDirectoryDoesNotSyncData() throws {
    let disk = SimulatedFileSystem()
    try TestDisk.write("data", to: "file", on: disk)
    try disk.syncDirectory(".")
    #expect(disk.durableContents("file") == [])
    let variants = TestDisk.variants(of: "file", in: disk.crashImages(limit: 1000))
    #expect(variants.contains([]))
    #expect(variants.contains(Array("data".utf8)))
    #expect(!variants.contains(nil))
  }

  @Test func renameWithoutDirectorySyncMayOrMayNotSurvive() throws {
    let disk = TestDisk.withDurableFile("target", "old")
    let handle = try disk.open("target.tmp", .createExclusive)
    try disk.write(handle, Array("new".utf8), at: 0)
    try disk.sync(handle)
    try disk.close(handle)
    try disk.rename("target.tmp", to: "target")
    #expect(TestDisk.text(disk.contents("target")) == "new")
    #expect(disk.contents("target.tmp") == nil)
    #expect(TestDisk.text(disk.durableContents("target")) == "old")
    let images = disk.crashImages(limit: 1000)
    let variants = TestDisk.variants(of: "target", in: images)
    #expect(variants == [Array("old".utf8), Array("new".utf8)])
    // With the create kept but not the rename, the temporary file is there too.
    #expect(images.contains { $0.files["target.tmp"] == Array("new".utf8) })
  }

  @Test func renameIsBoundToItsInode() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("incoming")
    try disk.createDirectory("final")
    try disk.syncDirectory(".")
    let handle = try disk.open("incoming/file", .createExclusive)
    try disk.write(handle, Array("payload".utf8), at: 0)
    try disk.sync(handle)
    try disk.rename("incoming/file", to: "final/file")
    try disk.syncDirectory("final")
    // The create in "incoming" never became durable, the rename did: the new name still
    // names the file.
    #expect(TestDisk.text(disk.durableContents("final/file")) == "payload")
    let crashed = disk.crashedDurableOnly()
    #expect(TestDisk.text(crashed.contents("final/file")) == "payload")
    #expect(crashed.contents("incoming/file") == nil)
    for image in disk.crashImages(limit: 1000) {
      #expect(image.files["final/file"] == Array("payload".utf8), "\(image)")
    }
  }

  @Test func handleFollowsItsFileThroughARename() throws {
    let disk = SimulatedFileSystem()
    let handle = try disk.open("a", .createOrOpen)
    try disk.rename("a", to: "b")
    try disk.write(handle, Array("x".utf8), at: 0)
    try disk.sync(handle)
    try disk.syncDirectory(".")
    #expect(TestDisk.text(disk.durableContents("b")) == "x")
    #expect(disk.contents("a") == nil)
    #expect(try disk.size(handle) == 1)
  }

  @Test func truncateIsPendingUntilSync() throws {
    let disk = TestDisk.withDurableFile("file", "hello")
    let handle = try disk.open("file", .readWrite)
    try disk.truncate(handle, to: 2)
    #expect(TestDisk.text(disk.contents("file")) == "he")
    #expect(TestDisk.text(disk.durableContents("file")) == "hello")
    let variants = TestDisk.variants(of: "file", in: disk.crashImages(limit: 1000))
    #expect(variants == [Array("hello".utf8), Array("he".utf8)])
    try disk.truncate(handle, to: 4)
    #expect(disk.contents("file") == Array("he".utf8) + [0, 0])
    try disk.sync(handle)
    #expect(disk.durableContents("file") == Array("he".utf8) + [0, 0])
  }

  @Test func laterWriteWithoutAnEarlierOneLeavesZeros() throws {
    let disk = TestDisk.withDurableFile("log", "")
    let handle = try disk.open("log", .readWrite)
    try disk.write(handle, Array("AAAA".utf8), at: 0)
    try disk.write(handle, Array("BB".utf8), at: 4)
    let variants = TestDisk.variants(of: "log", in: disk.crashImages(limit: 10_000))
    #expect(variants.contains([0, 0, 0, 0] + Array("BB".utf8)))
    #expect(variants.contains(Array("AAAABB".utf8)))
    #expect(variants.contains(Array("AAAA".utf8)))
    #expect(variants.contains([]))
  }

  @Test func imagesHoldEveryTornPrefixAndGarbage() throws {
    let disk = TestDisk.withDurableFile("file", "")
    let payload = Array("0123456789".utf8)
    let handle = try disk.open("file", .readWrite)
    try disk.write(handle, payload, at: 0)
    let images = disk.crashImages(limit: 1000)
    let variants = TestDisk.variants(of: "file", in: images)
    for landed in 1..<payload.count {
      #expect(variants.contains(Array(payload[..<landed])), "missing tear after \(landed)")
    }
    #expect(variants.contains(payload))
    #expect(variants.contains([]))
    let garbage = images.filter { $0.description.contains("garbage") }
    #expect(garbage.count == 1)
    let garbled = try #require(garbage.first?.files["file"])
    #expect(garbled.count == payload.count)
    #expect(garbled != payload)
    #expect(images.contains { $0.description.contains("torn after 3 of 10 bytes") })
  }

  @Test func smallBudgetTearsAtChosenPoints() throws {
    let disk = TestDisk.withDurableFile("file", "")
    let payload = [UInt8](repeating: 7, count: 10_000)
    let handle = try disk.open("file", .readWrite)
    try disk.write(handle, payload, at: 0)
    let images = disk.crashImages(limit: 64)
    let lengths = Set(images.compactMap { $0.files["file"]?.count })
    let chosen: Set = [0, 1, 512, 4096, 5000, 8192, 9728, 9999, 10_000]
    #expect(chosen.isSubset(of: lengths), "every representative tear point is enumerated")
    #expect(lengths.count > chosen.count + 20, "the rest of the budget goes to random tears")
    #expect(images.count <= 64)
  }

  @Test func manyPendingOperationsAreSampledReproducibly() throws {
    let disk = TestDisk.withDurableFile("log", "")
    let handle = try disk.open("log", .readWrite)
    for index in 0..<40 {
      try disk.write(handle, Array("record \(index);".utf8), at: UInt64(index * 10))
    }
    #expect(disk.pendingOperationCount == 40)
    let first = disk.crashImages(limit: 50)
    let second = disk.crashImages(limit: 50)
    #expect(first.count == 50)
    #expect(first.map(\.description) == second.map(\.description))
    #expect(first.map(\.files) == second.map(\.files))
    #expect(first[0].files["log"] == [])
    #expect(first[1].files["log"] == disk.contents("log"))
    let otherSeed = disk.crashImages(limit: 50, seed: 42)
    #expect(otherSeed.map(\.description) != first.map(\.description))
  }

  @Test func removeIsPendingUntilDirectorySync() throws {
    let disk = TestDisk.withDurableFile("file", "data")
    try disk.remove("file")
    #expect(disk.contents("file") == nil)
    #expect(try disk.fileSize("file") == nil)
    #expect(TestDisk.text(disk.durableContents("file")) == "data")
    let variants = TestDisk.variants(of: "file", in: disk.crashImages(limit: 100))
    #expect(variants == [nil, Array("data".utf8)])
    try disk.syncDirectory(".")
    #expect(disk.durableContents("file") == nil)
  }

  @Test func durableOnlyCrashDropsHandlesAndLocks() throws {
    let disk = TestDisk.withDurableFile("lock", "")
    let handle = try disk.open("lock", .readWrite)
    try disk.lock(handle)
    let crashed = disk.crashedDurableOnly()
    let other = try crashed.open("lock", .readWrite)
    try crashed.lock(other)
  }
}
