import StoicTesting
import Testing

@testable import StoicStore

/// Snapshot bytes built by hand, field by field, as an older build would have written them.
struct OutboxHandMadeSnapshot {
  var bytes: [UInt8] = []

  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func u16(_ value: Int) {
    for shift in [0, 8] { bytes.append(UInt8((value >> shift) & 0xFF)) }
  }
  mutating func u32(_ value: Int) {
    for shift in [0, 8, 16, 24] { bytes.append(UInt8((value >> shift) & 0xFF)) }
  }

  /// `count:u16 | (tag | length:u32 | value)*`.
  static func fields(_ fields: [(UInt8, [UInt8])]) -> [UInt8] {
    var out = OutboxHandMadeSnapshot()
    out.u16(fields.count)
    for (tag, value) in fields {
      out.u8(tag)
      out.u32(value.count)
      out.bytes += value
    }
    return out.bytes
  }

  static func list(_ blobs: [[UInt8]]) -> [UInt8] {
    var out = OutboxHandMadeSnapshot()
    out.u32(blobs.count)
    for blob in blobs {
      out.u32(blob.count)
      out.bytes += blob
    }
    return out.bytes
  }

  static func document(entries: [[UInt8]], extraSections: [(UInt8, [UInt8])] = []) -> [UInt8] {
    Array("SOBX".utf8) + [1, 0] + fields([(1, list(entries))] + extraSections)
  }
}

@Suite struct OutboxSnapshotTests {
  static let createdAt: [UInt8] = [0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00]  // 1.7e12 ms
  static let current = OutboxHandMadeSnapshot.fields([
    (1, Array("NEW1".utf8)), (2, Array("new one".utf8)), (4, createdAt),
  ])
  /// An older build wrote no state and no creation time.
  static let noStateNoDate = OutboxHandMadeSnapshot.fields([
    (1, Array("OLD1".utf8)), (2, Array("old one".utf8)),
  ])
  /// In flight when written, without a creation time.
  static let inFlightNoDate = OutboxHandMadeSnapshot.fields([
    (1, Array("FLY".utf8)), (2, Array("flying".utf8)), (3, [1]),
  ])
  /// No key: nothing can stand in for it.
  static let noKey = OutboxHandMadeSnapshot.fields([(2, Array("orphan".utf8)), (4, createdAt)])

  func plant(_ document: [UInt8], on disk: SimulatedFileSystem) throws {
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    try journal.writeSnapshot(covering: journal.lastSequence, bytes: document)
    try journal.close()
  }

  @Test func anOlderSnapshotWithMissingFieldsLoadsWithDefaultsThatLoseNothing() async throws {
    let disk = SimulatedFileSystem()
    try plant(
      OutboxHandMadeSnapshot.document(entries: [
        Self.current, Self.noStateNoDate, Self.noKey, Self.inFlightNoDate,
      ]), on: disk)
    let events = EventRecorder()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions(),
      events: events.sink)
    // Defaulted entries are queued and dated at the epoch; every entry keeps its place.
    #expect(await outbox.pending.map(\.key) == ["NEW1", "OLD1", "FLY"])
    #expect(await outbox.pending.map(\.state) == [.queued, .queued, .queued])
    #expect(await outbox.pending.map(\.createdAt) == [1_700_000_000_000, 0, 0])
    #expect(await outbox.pending.map(\.item) == ["new one", "old one", "flying"])
    // The entry with no key is reported, not dropped.
    let unreadable = await outbox.unreadable
    #expect(unreadable.count == 1)
    #expect(unreadable.first?.byteCount == Self.noKey.count)
    #expect(unreadable.first?.reason.contains("no key") == true)
    #expect(events.named(StoreEvents.outboxUnreadable.name).first?["count"] == "1")

    // Delivering the rest and compacting keeps it, byte for byte.
    let receiver = OutboxScriptedReceiver([])
    _ = try await outbox.deliverPending { receiver.answer($0) }
    #expect(receiver.sent.map(\.key) == ["NEW1", "OLD1", "FLY"])
    try await outbox.compact()
    try await outbox.close()
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    let stored = try #require(try journal.snapshot())
    let decoded = try OutboxSnapshot.decode(stored.bytes, maxSize: 1 << 20)
    #expect(decoded.ledger.unreadableEntries.map(\.bytes) == [Self.noKey])
    #expect(decoded.ledger.entries.isEmpty)
  }

  @Test func unknownSectionsAndFieldsOfANewerBuildAreKeptThroughCompaction() async throws {
    let disk = SimulatedFileSystem()
    let withExtraField = OutboxHandMadeSnapshot.fields([
      (1, Array("K".utf8)), (2, Array("k".utf8)), (200, [9, 9]),
    ])
    try plant(
      OutboxHandMadeSnapshot.document(entries: [withExtraField], extraSections: [(77, [1, 2, 3])]),
      on: disk)
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    #expect(await outbox.pending.map(\.key) == ["K"])
    try await outbox.compact()
    try await outbox.close()
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    let decoded = try OutboxSnapshot.decode(
      try #require(try journal.snapshot()).bytes, maxSize: 1 << 20)
    #expect(decoded.ledger.unknownSections.map(\.tag) == [77])
    #expect(decoded.ledger.unknownSections.map(\.value) == [[1, 2, 3]])
    #expect(decoded.ledger.entries.first?.unknownFields.map(\.value) == [[9, 9]])
  }

  @Test func aSnapshotOfANewerFormatIsRefusedAndLeftAlone() throws {
    let disk = SimulatedFileSystem()
    let newer = Array("SOBX".utf8) + [9, 0] + [0, 0]
    try plant(newer, on: disk)
    let error = #expect(throws: StoreError.self) {
      _ = try Outbox<String>(
        directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    }
    #expect(error?.code == .unsupported)
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    #expect(try journal.snapshot()?.bytes == newer)
  }

  @Test func compactionKeepsPendingParkedAndUnreadableEntries() async throws {
    let disk = SimulatedFileSystem()
    let first = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: outboxPickyCodec, options: outboxTestOptions())
    try await first.enqueue("a", key: "A")
    try await first.enqueue("c", key: "C")
    // Readable by the process that wrote it; not by the next one (the codec refuses "v2:").
    try await first.enqueue("v2:b", key: "B")
    try await first.enqueue("d", key: "D")
    _ = try await first.deliverPending { batch in
      batch.key == "A" ? .http(status: 400) : batch.key == "C" ? .http(status: 200) : .timeout
    }
    try await first.close()
    let second = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: outboxPickyCodec, options: outboxTestOptions())
    try await second.compact()
    try await second.close()
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    #expect(try journal.records().isEmpty)
    try journal.close()
    let third = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: outboxPickyCodec, options: outboxTestOptions())
    #expect(await third.parked.map(\.key) == ["A"])
    #expect(await third.parked.first?.lastError == "HTTP 400")
    let pending = await third.pending.map(\.key)
    #expect(pending == ["D"], "\(pending)")
    #expect(await third.unreadable.map(\.key) == ["B"])
    #expect(try await !third.enqueue("c", key: "C"))
  }

  @Test("the queue keeps its order across a compaction, whatever the creation times")
  func compactionKeepsTheQueueOrder() async throws {
    // The wall clock reads the epoch for the second entry (a device without a clock, set
    // back): its creation time is 0, like that of an entry an older format wrote.
    let disk = SimulatedFileSystem()
    let clock = OutboxManualClock()
    let options = outboxTestOptions(clock: clock)
    let first = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: options)
    try await first.enqueue("one", key: "batch-1")
    clock.advance(milliseconds: -clock.now)
    try await first.enqueue("two", key: "a")
    #expect(await first.pending.map(\.key) == ["batch-1", "a"])
    #expect(await first.pending.map(\.createdAt) == [1_700_000_000_000, 0])
    try await first.close()

    // Replayed from the log: the order the entries were enqueued in.
    let replayed = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: options)
    #expect(await replayed.pending.map(\.key) == ["batch-1", "a"])
    try await replayed.compact()
    try await replayed.close()

    // Read back from the snapshot: the same order.
    let compacted = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: options)
    #expect(await compacted.pending.map(\.key) == ["batch-1", "a"])
    let receiver = OutboxScriptedReceiver([])
    _ = try await compacted.deliverPending { receiver.answer($0) }
    #expect(receiver.sent.map(\.key) == ["batch-1", "a"])
    try await compacted.close()
  }
}
