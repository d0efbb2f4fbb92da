import StoicTesting
import Testing

@testable import StoicStore

/// A file name an entry owned may be used again by a later entry (or two entries may own one
/// file): the file is that entry's until it retires, whatever an earlier retirement recorded.
@Suite struct OutboxReusedOwnedFileTests {
  static let photo = "/media/slot-1.jpg"

  func open(_ disk: SimulatedFileSystem) throws -> Outbox<String> {
    try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
  }

  @Test func aReopenDoesNotRemoveAFileSavedAgainUnderADiscardedEntrysName() async throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(Self.photo, Array("first".utf8))
    let outbox = try open(disk)
    try await outbox.enqueue("a", key: "A", ownedFiles: [Self.photo])
    try await outbox.discard("A")
    #expect(disk.contents(Self.photo) == nil)
    disk.setDurableContents(Self.photo, Array("second".utf8))
    try await outbox.enqueue("b", key: "B", ownedFiles: [Self.photo])
    try await outbox.close()
    // Recovery replays A's discard; the file is B's now and stays.
    let reopened = try open(disk)
    #expect(disk.contents(Self.photo) == Array("second".utf8))
    #expect(await reopened.pending.map(\.key) == ["B"])
    _ = try await reopened.deliverPending { _ in .http(status: 200) }
    #expect(disk.contents(Self.photo) == nil)
  }

  @Test func aFileTwoEntriesOwnStaysUntilTheLastOneRetires() async throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(Self.photo, Array("shared".utf8))
    let outbox = try open(disk)
    try await outbox.enqueue("a", key: "A", ownedFiles: [Self.photo])
    try await outbox.enqueue("b", key: "B", ownedFiles: [Self.photo])
    try await outbox.discard("A")
    #expect(disk.contents(Self.photo) == Array("shared".utf8))
    try await outbox.compact()
    try await outbox.close()
    let reopened = try open(disk)
    #expect(disk.contents(Self.photo) == Array("shared".utf8))
    try await reopened.discard("B")
    #expect(disk.contents(Self.photo) == nil)
  }
}
