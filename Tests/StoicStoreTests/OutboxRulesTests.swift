import StoicTesting
import Testing

@testable import StoicStore

/// The drain's labelled rules (`OutboxRules`): each check holds in the states a drain goes
/// through, and fails on the state that would break it (where the drain asserts it, a debug
/// build would trap there).
@Suite struct OutboxRulesTests {
  func entry(_ key: String, _ state: OutboxEntryState, error: String? = nil) -> StoredEntry {
    var entry = StoredEntry(key: key, item: [1])
    entry.state = state
    entry.lastError = error
    return entry
  }

  func engine(_ keys: [String]) throws -> OutboxEngine<String> {
    let engine = try OutboxEngine(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(policy: .noRetry), events: EventRecorder().sink)
    for key in keys {
      _ = try engine.enqueue("item \(key)", key: key, ownedFiles: [], filesToUpload: [])
    }
    return engine
  }

  @Test func d1ASendStartsOnlyOnceEveryEntryIsInFlight() throws {
    let engine = try engine(["A", "B"])
    let drain = OutboxDrain(engine: engine, limits: OutboxBatchLimits(maxEntries: 2))
    guard case .send(let batch) = try drain.start() else {
      Issue.record("the drain did not send")
      return
    }
    #expect(OutboxRules.attemptRecorded(engine.ledger.members(ofBatch: batch.key)))
    #expect(engine.ledger.members(ofBatch: batch.key).count == 2)
    // The state that breaks the rule: an entry of the unit still queued.
    #expect(!OutboxRules.attemptRecorded([entry("A", .inFlight), entry("B", .queued)]))
  }

  @Test func d2NoMoreUnitsInFlightThanTheWindowEachOnce() {
    #expect(OutboxRules.windowKept(["A", "B"], window: 2))
    #expect(OutboxRules.windowKept([], window: 1))
    #expect(!OutboxRules.windowKept(["A", "B", "C"], window: 2))
    #expect(!OutboxRules.windowKept(["A", "A"], window: 4))
  }

  @Test func d3ADeliveredUnitLeavesNothingBehind() throws {
    let engine = try engine(["A"])
    let drain = OutboxDrain(engine: engine, limits: .single)
    _ = try drain.start()
    _ = try drain.sent()
    _ = try drain.received(.http(status: 200), for: "A")
    #expect(
      OutboxRules.deliveredLeft(
        engine.ledger.indices(of: .entry("A")).map {
          engine.ledger.entries[$0]
        }))
    #expect(!OutboxRules.deliveredLeft([entry("A", .inFlight)]))
  }

  @Test func d4AParkedUnitsEntriesAllNeedAttention() throws {
    let engine = try engine(["A", "B"])
    let drain = OutboxDrain(engine: engine, limits: OutboxBatchLimits(maxEntries: 2))
    guard case .send(let batch) = try drain.start() else {
      Issue.record("the drain did not send")
      return
    }
    _ = try drain.sent()
    _ = try drain.received(.http(status: 400), for: batch.key)
    let parked = ["A", "B"].compactMap { engine.ledger.entry($0) }
    #expect(parked.count == 2)
    let reason = try #require(parked.first?.lastError)
    #expect(OutboxRules.parkedNeedAttention(parked, reason: reason))
    #expect(!OutboxRules.parkedNeedAttention([entry("A", .queued, error: reason)], reason: reason))
    #expect(!OutboxRules.parkedNeedAttention([entry("A", .needsAttention)], reason: reason))
    var batched = entry("A", .needsAttention, error: reason)
    batched.batchKey = batch.key
    #expect(!OutboxRules.parkedNeedAttention([batched], reason: reason))
  }

  @Test func d5ADrainFinishesIdle() throws {
    let engine = try engine(["A"])
    let drain = OutboxDrain(engine: engine, limits: .single)
    _ = try drain.start()
    _ = try drain.sent()
    guard case .finished = try drain.received(.http(status: 200), for: "A") else {
      Issue.record("the drain did not finish")
      return
    }
    #expect(OutboxRules.finishedIdle(inFlight: 0, retries: 0))
    #expect(!OutboxRules.finishedIdle(inFlight: 1, retries: 0))
    #expect(!OutboxRules.finishedIdle(inFlight: 0, retries: 1))
  }
}
