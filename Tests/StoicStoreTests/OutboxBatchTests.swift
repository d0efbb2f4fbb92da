import StoicTesting
import Testing

@testable import StoicStore

@Suite struct OutboxBatchTests {
  func open(_ log: MemoryOutboxLog, events: EventRecorder = EventRecorder()) throws
    -> Outbox<String>
  {
    try Outbox(
      log: log, codec: .utf8, fileSystem: SimulatedFileSystem(), options: outboxTestOptions(),
      events: events.sink)
  }

  func fill(_ outbox: Outbox<String>, _ keys: [String]) async throws {
    for key in keys { try await outbox.enqueue("item \(key)", key: key) }
  }

  @Test func batchesRespectTheEntryAndByteLimits() async throws {
    let outbox = try open(MemoryOutboxLog())
    try await fill(outbox, ["A", "B", "C", "D", "E"])
    let receiver = OutboxScriptedReceiver([])
    let report = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 2)) {
      receiver.answer($0)
    }
    #expect(report.delivered == 5)
    #expect(receiver.sent.map(\.entries) == [["A", "B"], ["C", "D"], ["E"]])
    #expect(Set(receiver.sent.map(\.key)).count == 3)
    #expect(receiver.sent.allSatisfy { $0.key.hasPrefix("batch-") })
    #expect(await outbox.pending.isEmpty)

    let small = try open(MemoryOutboxLog())
    try await fill(small, ["A", "B", "C"])  // 6 bytes each
    let bySize = OutboxScriptedReceiver([])
    _ = try await small.deliverPending(batch: OutboxBatchLimits(maxEntries: 10, maxBytes: 13)) {
      bySize.answer($0)
    }
    #expect(bySize.sent.map(\.entries) == [["A", "B"], ["C"]])
  }

  @Test func aBatchIsPersistedBeforeItsFirstSendAndResentUnchangedAfterARestart() async throws {
    let log = MemoryOutboxLog()
    let outbox = try open(log)
    try await fill(outbox, ["A", "B", "C", "D", "E"])
    let first = OutboxScriptedReceiver([.http(status: 503)])
    let halted = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 2)) {
      first.answer($0)
    }
    #expect(halted.haltedBecause == "HTTP 503")
    let batchKey = try #require(first.sent.first?.key)
    #expect(await outbox.entry("A")?.batchKey == batchKey)

    // After a restart, with other limits, the same entries go again under the same key.
    let reopened = try open(log)
    #expect(await reopened.pending.map(\.batchKey) == [batchKey, batchKey, nil, nil, nil])
    let second = OutboxScriptedReceiver([])
    let report = try await reopened.deliverPending(batch: OutboxBatchLimits(maxEntries: 3)) {
      second.answer($0)
    }
    #expect(report.delivered == 5)
    #expect(second.sent.first?.key == batchKey)
    #expect(second.sent.map(\.entries) == [["A", "B"], ["C", "D", "E"]])
  }

  @Test func aPermanentFailureParksTheWholeBatchAndTheDrainContinues() async throws {
    let events = EventRecorder()
    let outbox = try open(MemoryOutboxLog(), events: events)
    try await fill(outbox, ["A", "B", "C"])
    let receiver = OutboxScriptedReceiver([.http(status: 400), .http(status: 200)])
    let report = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 2)) {
      receiver.answer($0)
    }
    #expect(report.parked == 2)
    #expect(report.delivered == 1)
    #expect(await outbox.parked.map(\.key) == ["A", "B"])
    #expect(await outbox.parked.allSatisfy { $0.batchKey == nil && $0.lastError == "HTTP 400" })
    #expect(events.named(StoreEvents.outboxParked.name).count == 2)
  }

  @Test func acknowledgingABatchAcknowledgesAllItsEntries() async throws {
    let log = MemoryOutboxLog()
    let outbox = try open(log)
    try await fill(outbox, ["A", "B", "C"])
    let receiver = OutboxScriptedReceiver([.timeout])
    _ = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 2)) {
      receiver.answer($0)
    }
    let batchKey = try #require(receiver.sent.first?.key)
    try await outbox.acknowledge(batchKey)
    #expect(await outbox.pending.map(\.key) == ["C"])
    #expect(try await open(log).pending.map(\.key) == ["C"])
  }

  @Test func anOTLPPartialSuccessIsDeliveredAndItsRejectedCountReported() async throws {
    let events = EventRecorder()
    let outbox = try open(MemoryOutboxLog(), events: events)
    try await fill(outbox, ["A", "B"])
    let receiver = OutboxScriptedReceiver([.partialSuccess(rejected: 4, message: "bad points")])
    let report = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 2)) {
      receiver.answer($0)
    }
    #expect(report.delivered == 2)
    #expect(report.rejectedByReceiver == 4)
    #expect(report.attempts == 1)
    let delivered = events.all.filter { $0.definition == StoreEvents.outboxDelivered }
    #expect(delivered.map { $0["rejected"] } == ["4"])
    #expect(await outbox.pending.isEmpty)
  }
}

extension OutboxBatchTests {
  @Test func enqueueingSeveralWritesTheNewOnesInOrderAndSkipsKnownKeys() async throws {
    let log = MemoryOutboxLog()
    let outbox = try open(log)
    try await outbox.enqueue("item A", key: "A")
    let added = try await outbox.enqueue(contentsOf: [
      ("item B", "B"), ("item A again", "A"), ("item C", "C"), ("item B again", "B"),
    ])
    #expect(added == 2)
    #expect(await outbox.pending.map(\.key) == ["A", "B", "C"])
    #expect(await outbox.entry("B")?.item == "item B")
    #expect(log.records.count == 3)
    // Nothing new: nothing written.
    #expect(try await outbox.enqueue(contentsOf: [("x", "A"), ("y", "C")]) == 0)
    #expect(log.records.count == 3)
    // A bad key anywhere refuses the whole call before anything is written.
    await #expect(throws: StoreError.self) {
      try await outbox.enqueue(contentsOf: [("item D", "D"), ("no key", "")])
    }
    #expect(await outbox.entry("D") == nil)
    #expect(log.records.count == 3)
    // The same state comes back from the log.
    let reopened = try open(log)
    #expect(await reopened.pending.map(\.key) == ["A", "B", "C"])
  }

  @Test func enqueueingSeveralOnTheJournalIsOneSync() async throws {
    let disk = JournalSyncCountingFileSystem(SimulatedFileSystem())
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    let before = disk.syncs
    let added = try await outbox.enqueue(
      contentsOf: (0..<20).map { ("item \($0)", "K\($0)") })
    #expect(added == 20)
    #expect(disk.syncs - before == 1)
    try await outbox.close()
    let reopened = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    #expect(await reopened.pending.map(\.key) == (0..<20).map { "K\($0)" })
  }
}
