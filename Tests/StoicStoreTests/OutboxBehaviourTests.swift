import StoicTesting
import Testing

@testable import StoicStore

@Suite struct OutboxBehaviourTests {
  func open(
    _ log: MemoryOutboxLog, _ fileSystem: any FileSystem = SimulatedFileSystem(),
    options: OutboxOptions = outboxTestOptions(), events: EventRecorder = EventRecorder()
  ) throws -> Outbox<String> {
    try Outbox(
      log: log, codec: .utf8, fileSystem: fileSystem, options: options, events: events.sink)
  }

  /// The article's check run: one id offered twice, one send interrupted, then 200, 422, 503,
  /// 200 → one delivered, one parked, two still queued, the drain halted on the 503.
  @Test func theArticlesCheckRun() async throws {
    let log = MemoryOutboxLog()
    let events = EventRecorder()
    let first = try open(log)
    for key in ["01A", "01B", "01C", "01D"] { try await first.enqueue("capture \(key)", key: key) }
    let offeredAgain = try await first.enqueue("capture 01A again", key: "01A")
    #expect(!offeredAgain)
    #expect(await first.pending.count == 4)
    // The app is killed while the first send is in flight.
    let interrupted = try await first.deliverPending { batch in
      #expect(await first.entry(batch.key)?.state == .inFlight)
      throw CancellationError()
    }
    #expect(interrupted.haltedBecause == "cancelled")

    let outbox = try open(log, events: events)
    #expect(await outbox.pending.map(\.state) == [.queued, .queued, .queued, .queued])
    #expect(await outbox.entry("01A")?.attempts == 1)
    #expect(await outbox.entry("01A")?.item == "capture 01A")
    let receiver = OutboxScriptedReceiver([
      .http(status: 200), .http(status: 422), .http(status: 503), .http(status: 200),
    ])
    let report = try await outbox.deliverPending { receiver.answer($0) }
    #expect(report.delivered == 1)
    #expect(report.parked == 1)
    #expect(report.haltedBecause == "HTTP 503")
    #expect(receiver.sent.map(\.key) == ["01A", "01B", "01C"])
    #expect(await outbox.entry("01A") == nil)
    #expect(await outbox.parked.map(\.key) == ["01B"])
    #expect(await outbox.parked.first?.lastError == "HTTP 422")
    #expect(await outbox.pending.map(\.key) == ["01C", "01D"])
    #expect(await outbox.pending.map(\.state) == [.queued, .queued])
    #expect(events.named(StoreEvents.outboxDelivered.name).map { $0["key"] } == ["01A"])
    #expect(events.named(StoreEvents.outboxParked.name).map { $0["key"] } == ["01B"])
    #expect(
      events.named(StoreEvents.outboxDeliveryFailed.name).map { $0["failure"] } == [
        "permanent", "transient",
      ])

    // The same state comes back from disk.
    let reopened = try open(log)
    #expect(await reopened.pending.map(\.key) == ["01C", "01D"])
    #expect(await reopened.parked.map(\.key) == ["01B"])
    // The app re-queues the parked entry: it goes to the back of the line.
    try await reopened.requeue("01B")
    #expect(await reopened.pending.map(\.key) == ["01C", "01D", "01B"])
    #expect(await reopened.pending.last?.attempts == 0)
  }

  @Test func enqueueIsIdempotentAndWritesNothingForAKeyItHolds() async throws {
    let log = MemoryOutboxLog()
    let outbox = try open(log)
    #expect(try await outbox.enqueue("a", key: "K"))
    #expect(try await !outbox.enqueue("b", key: "K"))
    #expect(log.records.count == 1)
    try await outbox.acknowledge("K")
    // A late re-offer of a delivered key is recognised as settled.
    #expect(try await !outbox.enqueue("a", key: "K"))
    #expect(await outbox.pending.isEmpty)
  }

  @Test func acknowledgingAnUnknownKeyThrows() async throws {
    let outbox = try open(MemoryOutboxLog())
    try await outbox.enqueue("a", key: "K")
    await #expect(throws: StoreError.self) { try await outbox.acknowledge("nope") }
    try await outbox.acknowledge("K")
    let error = await #expect(throws: StoreError.self) { try await outbox.acknowledge("K") }
    #expect(error?.code == .notFound)
  }

  @Test func duplicatesOnDiskAreHealedAtLoadAndASettledCopyWins() async throws {
    let log = MemoryOutboxLog()
    var first = StoredEntry(key: "K", item: Array("first".utf8))
    first.createdAt = 1
    log.records = [
      OutboxRecord.enqueue(first).encoded(),
      OutboxRecord.enqueue(StoredEntry(key: "K", item: Array("second".utf8))).encoded(),
      OutboxRecord.enqueue(StoredEntry(key: "J", item: Array("j".utf8))).encoded(),
      OutboxRecord.acknowledge(key: "K").encoded(),
      OutboxRecord.enqueue(StoredEntry(key: "K", item: Array("third".utf8))).encoded(),
      OutboxRecord.enqueue(StoredEntry(key: "J", item: Array("j again".utf8))).encoded(),
    ]
    let outbox = try open(log)
    #expect(await outbox.pending.map(\.key) == ["J"])
    #expect(await outbox.pending.map(\.item) == ["j"])
    #expect(await outbox.duplicatesHealed == 3)
  }

  @Test func theSeedsRecordLayoutIsRead() async throws {
    let log = MemoryOutboxLog()
    log.records = [
      [0x01, 2, 0, 0x4B, 0x31] + Array("one".utf8),
      [0x01, 2, 0, 0x4B, 0x32] + Array("two".utf8),
      [0x02, 2, 0, 0x4B, 0x31],
    ]
    let outbox = try open(log)
    #expect(await outbox.pending.map(\.key) == ["K2"])
    #expect(await outbox.pending.map(\.item) == ["two"])
    #expect(await outbox.pending.first?.createdAt == 0)
  }

  @Test func statesAreVisibleThroughTheEntrysLife() async throws {
    let outbox = try open(MemoryOutboxLog())
    try await outbox.enqueue("a", key: "A")
    try await outbox.enqueue("b", key: "B")
    #expect(await outbox.state(of: "A") == .queued)
    _ = try await outbox.deliverPending { batch in
      #expect(await outbox.state(of: batch.key) == .inFlight)
      // A drain started while one runs does nothing.
      let inner = try await outbox.deliverPending { _ in .http(status: 200) }
      #expect(inner.attempts == 0)
      return batch.key == "A" ? .http(status: 200) : .http(status: 409)
    }
    #expect(await outbox.state(of: "A") == .delivered)
    #expect(await outbox.state(of: "B") == .needsAttention)
    #expect(await outbox.state(of: "C") == nil)
    // Asked of many keys at once: the first delivered one, by the same states.
    #expect(await outbox.firstDelivered(among: ["C", "B", "A", "A"]) == 2)
    #expect(await outbox.firstDelivered(among: ["B", "C"]) == nil)
    #expect(await outbox.firstDelivered(among: []) == nil)
  }
}

@Suite struct OutboxOrderTests {
  @Test func compactionKeepsEnqueueOrderWhenTheWallClockGoesBackwards() async throws {
    let log = MemoryOutboxLog()
    let clock = OutboxManualClock(now: 1_700_000_000_000)
    let options = outboxTestOptions(clock: clock)
    let outbox = try Outbox(
      log: log, codec: .utf8, fileSystem: SimulatedFileSystem(), options: options,
      events: .discard)
    _ = try await outbox.enqueue("first", key: "a")
    clock.advance(milliseconds: -3_600_000)  // the clock is set back an hour
    _ = try await outbox.enqueue("second", key: "b")
    clock.advance(milliseconds: 10)
    _ = try await outbox.enqueue("third", key: "c")
    try await outbox.compact()
    let reopened = try Outbox(
      log: log, codec: .utf8, fileSystem: SimulatedFileSystem(), options: options,
      events: .discard)
    let keys = await reopened.pending.map { $0.key }
    #expect(keys == ["a", "b", "c"])
  }
}
