import StoicTesting
import Testing

@_spi(Testing) @testable import StoicStore

@Suite struct OutboxOwnedFilesTests {
  static let photos = ["/media/p1.jpg", "/media/p2.jpg"]

  func disk() -> SimulatedFileSystem {
    let disk = SimulatedFileSystem()
    for photo in Self.photos { disk.setDurableContents(photo, [0xFF, 0xD8, 0xFF]) }
    return disk
  }

  /// Uploads every file still to upload (emptying that list) before the entry retires, then
  /// checks the owned files are gone: the test the one-list bug fails.
  func uploadAllThenRetire(_ outbox: Outbox<String>) async throws -> OutboxDrainReport {
    try await outbox.enqueue(
      "trail note", key: "N1", ownedFiles: Self.photos, filesToUpload: Self.photos)
    return try await outbox.deliverPending { batch in
      for entry in batch.entries {
        for file in entry.filesToUpload { try await outbox.markUploaded(file, of: entry.key) }
        let left = await outbox.entry(entry.key)?.filesToUpload
        guard left == [] else { return .networkError("uploads left: \(left ?? [])") }
      }
      return .http(status: 200)
    }
  }

  @Test func ownedFilesAreRemovedWhenTheEntryRetiresAfterItsUploadListIsEmpty() async throws {
    let disk = disk()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    let report = try await uploadAllThenRetire(outbox)
    #expect(report.delivered == 1)
    #expect(Self.photos.allSatisfy { disk.contents($0) == nil })
    #expect(Self.photos.allSatisfy { disk.durableContents($0) == nil })
  }

  @Test func theOneListBugLeavesThePhotosBehind() async throws {
    let disk = disk()
    var options = outboxTestOptions()
    options.mutations = .retireUsesUploadList
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: options)
    let report = try await uploadAllThenRetire(outbox)
    #expect(report.delivered == 1)
    // With one list doing both jobs, the cleanup iterates nothing: the files stay.
    #expect(Self.photos.allSatisfy { disk.contents($0) != nil })
  }

  @Test func discardingAnEntryRemovesItsOwnedFiles() async throws {
    let disk = disk()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    try await outbox.enqueue("x", key: "X", ownedFiles: Self.photos)
    _ = try await outbox.deliverPending { _ in .http(status: 413) }
    #expect(await outbox.parked.map(\.key) == ["X"])
    #expect(disk.contents(Self.photos[0]) != nil)
    try await outbox.discard("X")
    #expect(Self.photos.allSatisfy { disk.contents($0) == nil })
  }

  @Test func aFailedRemovalIsReportedNeverBlocksTheAckAndIsRetriedLater() async throws {
    let base = disk()
    let disk = OutboxRemoveFailingFileSystem(base)
    disk.failRemovals = true
    let events = EventRecorder()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions(),
      events: events.sink)
    try await outbox.enqueue("x", key: "X", ownedFiles: Self.photos)
    let report = try await outbox.deliverPending { _ in .http(status: 200) }
    #expect(report.delivered == 1)
    #expect(await outbox.pending.isEmpty)
    #expect(events.named(StoreEvents.outboxMaintenanceFailed.name).count == 2)
    #expect(base.contents(Self.photos[0]) != nil)
    // The list of files to remove survives compaction and a restart.
    try await outbox.compact()
    try await outbox.close()
    disk.failRemovals = false
    _ = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    #expect(Self.photos.allSatisfy { base.contents($0) == nil })
  }

  @Test func anOwnedFileAlreadyGoneIsNotAFailure() async throws {
    let events = EventRecorder()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: SimulatedFileSystem(), codec: .utf8,
      options: outboxTestOptions(), events: events.sink)
    try await outbox.enqueue("x", key: "X", ownedFiles: ["/gone/p.jpg", "/outbox-media/q.jpg"])
    _ = try await outbox.deliverPending { _ in .http(status: 200) }
    #expect(events.named(StoreEvents.outboxMaintenanceFailed.name).isEmpty)
  }
}
