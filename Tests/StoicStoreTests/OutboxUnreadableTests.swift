import StoicTesting
import Testing

@testable import StoicStore

/// Items are strings; this build cannot read those starting with "v2:".
let outboxPickyCodec = OutboxCodec<String>(
  encode: { Array($0.utf8) },
  decode: { (bytes) throws(StoreError) -> String in
    let text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("v2:") { throw StoreError(.corrupt, "format v2 is not known here") }
    return text
  })

@Suite struct OutboxUnreadableTests {
  func open(_ log: MemoryOutboxLog, events: EventRecorder = EventRecorder()) throws
    -> Outbox<String>
  {
    try Outbox(
      log: log, codec: outboxPickyCodec, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(),
      events: events.sink)
  }

  @Test func undecodableEntriesAreKeptCountedAndNeverDelivered() async throws {
    let log = MemoryOutboxLog()
    let newer = StoredEntry(key: "N", item: Array("v2:{\"new\":true}".utf8))
    log.records = [
      OutboxRecord.enqueue(StoredEntry(key: "A", item: Array("a".utf8))).encoded(),
      OutboxRecord.enqueue(newer).encoded(),
      OutboxRecord.enqueue(StoredEntry(key: "B", item: Array("b".utf8))).encoded(),
    ]
    let events = EventRecorder()
    let outbox = try open(log, events: events)
    #expect(await outbox.pending.map(\.key) == ["A", "B"])
    #expect(await outbox.unreadable.map(\.key) == ["N"])
    #expect(events.named(StoreEvents.outboxUnreadable.name).first?["count"] == "1")

    let receiver = OutboxScriptedReceiver([])
    let report = try await outbox.deliverPending { receiver.answer($0) }
    #expect(report.delivered == 2)
    #expect(receiver.sent.map(\.key) == ["A", "B"])
    try await outbox.compact()

    // Through compaction, byte for byte.
    let snapshot = try #require(log.snapshot)
    let decoded = try OutboxSnapshot.decode(snapshot, maxSize: 1 << 20)
    #expect(decoded.ledger.entries.map(\.item) == [newer.item])
    let reopened = try open(log)
    #expect(await reopened.unreadable.count == 1)
    #expect(await reopened.unreadable.first?.byteCount == newer.item.count)
    // The app can discard it by key.
    try await reopened.discard("N")
    #expect(await reopened.unreadable.isEmpty)
  }

  @Test func recordsOfAnUnknownTypeOrVersionAreKeptAndCounted() async throws {
    let log = MemoryOutboxLog()
    let unknownType: [UInt8] = [0x7F, 1, 0, 0, 9, 9, 9]
    let newerVersion: [UInt8] = [0x04, 9, 1, 0, 1, 1, 0, 0, 0, 0x41]
    let malformed: [UInt8] = [0x02, 200, 0, 0x41]
    log.records = [
      OutboxRecord.enqueue(StoredEntry(key: "A", item: Array("a".utf8))).encoded(),
      unknownType, newerVersion, malformed,
    ]
    let outbox = try open(log)
    #expect(await outbox.pending.map(\.key) == ["A"])
    #expect(await outbox.unreadable.count == 3)
    try await outbox.compact()
    #expect(log.records.isEmpty)
    let reopened = try open(log)
    #expect(await reopened.unreadable.map(\.byteCount) == [7, 10, 4])
    let decoded = try OutboxSnapshot.decode(try #require(log.snapshot), maxSize: 1 << 20)
    #expect(decoded.records == [unknownType, newerVersion, malformed])
  }
}
