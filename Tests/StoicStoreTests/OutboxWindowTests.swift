import StoicTesting
import Testing

@testable import StoicStore

/// A drain with several sends in flight: the state machine driven by hand, answer by answer,
/// and the async driver against a receiver that answers slowly.
@Suite struct OutboxWindowTests {
  typealias Drain = OutboxDrain<String>

  func engine(
    _ keys: [String], policy: RetryPolicy = .noRetry, events: EventRecorder = EventRecorder()
  ) throws -> OutboxEngine<String> {
    let engine = try OutboxEngine(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(policy: policy), events: events.sink)
    for key in keys {
      _ = try engine.enqueue("item \(key)", key: key, ownedFiles: [], filesToUpload: [])
    }
    return engine
  }

  /// The key of a send action, or a description of the action that came instead.
  func sendKey(_ action: Drain.Action) -> String {
    switch action {
    case .send(let batch): batch.key
    case .awaitAnswer: "awaitAnswer"
    case .wait(let duration): "wait \(duration)"
    case .finished(let report): "finished \(report.haltedBecause ?? "")"
    }
  }

  func isAwaitingAnswer(_ action: Drain.Action) -> Bool {
    if case .awaitAnswer = action { return true }
    return false
  }

  func state(_ engine: OutboxEngine<String>, _ key: String) -> OutboxEntryState? {
    engine.ledger.entry(key)?.state
  }

  /// The report of a drain that finished, or a failure.
  func finished(_ action: Drain.Action) throws -> OutboxDrainReport {
    guard case .finished(let report) = action else {
      throw WindowTestFailure("the drain did not finish: \(sendKey(action))")
    }
    return report
  }

  /// Starts `drain` and checks that it sends `keys`, then waits for an answer.
  func fillTheWindow(_ drain: Drain, _ keys: [String]) throws {
    var action = try drain.start()
    for key in keys {
      #expect(sendKey(action) == key)
      action = try drain.sent()
    }
    #expect(isAwaitingAnswer(action))
  }

  @Test func aWindowStartsUpToItsWidthAndTakesAnswersInAnyOrder() throws {
    let engine = try engine(["E1", "E2", "E3", "E4", "E5"])
    let drain = Drain(engine: engine, limits: .single, window: 3)
    #expect(sendKey(try drain.start()) == "E1")
    #expect(sendKey(try drain.sent()) == "E2")
    #expect(sendKey(try drain.sent()) == "E3")
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(["E1", "E2", "E3"].map { state(engine, $0) } == [.inFlight, .inFlight, .inFlight])
    #expect(state(engine, "E4") == .queued)
    // The second answer comes first: it is acknowledged, and its place goes to E4.
    #expect(sendKey(try drain.received(.http(status: 200), for: "E2")) == "E4")
    #expect(state(engine, "E2") == nil)
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(sendKey(try drain.received(.http(status: 200), for: "E3")) == "E5")
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(isAwaitingAnswer(try drain.received(.http(status: 200), for: "E5")))
    #expect(isAwaitingAnswer(try drain.received(.http(status: 422), for: "E1")))
    let report = try finished(try drain.received(.http(status: 200), for: "E4"))
    #expect(report.delivered == 4)
    #expect(report.parked == 1)
    #expect(report.attempts == 5)
    #expect(report.haltedBecause == nil)
    #expect(engine.ledger.entries.map(\.key) == ["E1"])
    #expect(state(engine, "E1") == .needsAttention)
  }

  @Test func aTransientFailureStopsNewSendsAndIsRetriedAloneOnceTheWindowIsAnswered() throws {
    let engine = try engine(["E1", "E2", "E3", "E4", "E5"], policy: RetryPolicy(maxAttempts: 3))
    let drain = Drain(engine: engine, limits: .single, window: 3)
    #expect(sendKey(try drain.start()) == "E1")
    #expect(sendKey(try drain.sent()) == "E2")
    #expect(sendKey(try drain.sent()) == "E3")
    #expect(isAwaitingAnswer(try drain.sent()))
    // E1 fails: nothing new starts while E2 and E3 are out.
    #expect(isAwaitingAnswer(try drain.received(.http(status: 503), for: "E1")))
    #expect(isAwaitingAnswer(try drain.received(.http(status: 200), for: "E2")))
    let wait = sendKey(try drain.received(.http(status: 200), for: "E3"))
    #expect(wait.hasPrefix("wait"), "\(wait)")
    // After the wait, E1 goes alone.
    #expect(sendKey(try drain.resume()) == "E1")
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(state(engine, "E4") == .queued)
    // Delivered: the window opens again.
    #expect(sendKey(try drain.received(.http(status: 200), for: "E1")) == "E4")
    #expect(sendKey(try drain.sent()) == "E5")
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(isAwaitingAnswer(try drain.received(.http(status: 200), for: "E5")))
    let report = try finished(try drain.received(.http(status: 200), for: "E4"))
    #expect(report.delivered == 5)
    #expect(report.attempts == 6)
    #expect(engine.ledger.entries.isEmpty)
  }

  @Test func unitsThatFailBesideTheRetriedOneGoAgainAfterIt() throws {
    let engine = try engine(["E1", "E2", "E3", "E4"], policy: RetryPolicy(maxAttempts: 3))
    let drain = Drain(engine: engine, limits: .single, window: 3)
    try fillTheWindow(drain, ["E1", "E2", "E3"])
    #expect(isAwaitingAnswer(try drain.received(.http(status: 503), for: "E1")))
    #expect(isAwaitingAnswer(try drain.received(.networkError("refused"), for: "E2")))
    #expect(sendKey(try drain.received(.http(status: 200), for: "E3")).hasPrefix("wait"))
    #expect(sendKey(try drain.resume()) == "E1")
    #expect(isAwaitingAnswer(try drain.sent()))
    // E2 goes before any entry not sent yet.
    #expect(sendKey(try drain.received(.http(status: 200), for: "E1")) == "E2")
    #expect(sendKey(try drain.sent()) == "E4")
    #expect(isAwaitingAnswer(try drain.sent()))
    #expect(isAwaitingAnswer(try drain.received(.http(status: 200), for: "E4")))
    let report = try finished(try drain.received(.http(status: 200), for: "E2"))
    #expect(report.delivered == 4)
    #expect(engine.ledger.entries.isEmpty)
  }

  @Test func whenRetriesRunOutTheFailedGoBackInLineAndTheDrainEndsAfterTheWindow() throws {
    let engine = try engine(["E1", "E2", "E3", "E4", "E5"])
    let drain = Drain(engine: engine, limits: .single, window: 3)
    try fillTheWindow(drain, ["E1", "E2", "E3"])
    #expect(isAwaitingAnswer(try drain.received(.http(status: 503), for: "E2")))
    #expect(state(engine, "E2") == .queued)
    #expect(isAwaitingAnswer(try drain.received(.networkError("reset"), for: "E3")))
    let report = try finished(try drain.received(.http(status: 200), for: "E1"))
    #expect(report.haltedBecause == "HTTP 503")
    #expect(report.delivered == 1)
    #expect(engine.ledger.entries.map(\.key) == ["E2", "E3", "E4", "E5"])
    #expect(engine.ledger.entries.allSatisfy { $0.state == .queued })
  }

  @Test func anAbandonedDrainPutsEverythingInFlightBackInLine() throws {
    let engine = try engine(["E1", "E2", "E3"])
    let drain = Drain(engine: engine, limits: .single, window: 2)
    _ = try drain.start()
    #expect(sendKey(try drain.sent()) == "E2")
    #expect(isAwaitingAnswer(try drain.sent()))
    guard case .finished(let report) = drain.stop("cancelled") else {
      Issue.record("the drain did not finish")
      return
    }
    #expect(report.haltedBecause == "cancelled")
    #expect(engine.ledger.entries.map(\.state) == [.queued, .queued, .queued])
    #expect(engine.ledger.entries.map(\.attempts) == [1, 1, 0])
  }

  @Test func theAsyncDriverKeepsTheWindowFullAndDeliversEachEntryOnce() async throws {
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(), events: .discard)
    let keys = (1...12).map { "E\($0)" }
    for key in keys { try await outbox.enqueue("item \(key)", key: key) }
    let meter = ConcurrencyMeter()
    let report = try await outbox.deliverPending(inFlight: 4) { batch in
      meter.begin(batch.key)
      try await Task.sleep(for: .milliseconds(batch.key == "E1" ? 60 : 15))
      meter.end()
      return .http(status: 200)
    }
    #expect(report.delivered == 12)
    #expect(report.haltedBecause == nil)
    #expect(meter.sent.sorted() == keys.sorted())
    #expect(meter.peak == 4)
    #expect(await outbox.pending.isEmpty)
  }

  @Test func withAWindowOfOneNoSendOverlapsAnother() async throws {
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(), events: .discard)
    for key in ["E1", "E2", "E3", "E4"] { try await outbox.enqueue("item \(key)", key: key) }
    let meter = ConcurrencyMeter()
    let report = try await outbox.deliverPending { batch in
      meter.begin(batch.key)
      try await Task.sleep(for: .milliseconds(5))
      meter.end()
      return .http(status: 200)
    }
    #expect(report.delivered == 4)
    #expect(meter.sent == ["E1", "E2", "E3", "E4"])
    #expect(meter.peak == 1)
  }
}

/// Counts sends running at once.
final class ConcurrencyMeter: Sendable {
  private let state = SleepingLock<(running: Int, peak: Int, sent: [String])>((0, 0, []))

  func begin(_ key: String) {
    state.withLock {
      $0.running += 1
      $0.peak = max($0.peak, $0.running)
      $0.sent.append(key)
    }
  }

  func end() { state.withLock { $0.running -= 1 } }

  var peak: Int { state.withLock { $0.peak } }
  var sent: [String] { state.withLock { $0.sent } }
}

struct WindowTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
