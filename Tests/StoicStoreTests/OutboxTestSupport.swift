import Synchronization

@testable import StoicStore

/// An in-memory stand-in for the journal, for tests that are not about the disk.
final class MemoryOutboxLog: OutboxLog, @unchecked Sendable {
  var snapshot: [UInt8]?
  var records: [[UInt8]] = []
  var failAppends = false

  init() {}

  func load() throws(StoreError) -> (snapshot: [UInt8]?, records: [[UInt8]]) {
    (snapshot, records)
  }

  func append(_ record: [UInt8]) throws(StoreError) {
    if failAppends { throw StoreError(.io, "injected append failure") }
    records.append(record)
  }

  func compact(snapshot: [UInt8]) throws(StoreError) {
    self.snapshot = snapshot
    records = []
  }

  func close() throws(StoreError) {}
}

/// A wall clock that only moves when told to, or when the outbox sleeps on it.
final class ManualClock: Sendable {
  private let state: Mutex<(now: Int64, sleeps: [Duration])>

  init(now: Int64 = 1_700_000_000_000) {
    state = Mutex((now, []))
  }

  var now: Int64 { state.withLock { $0.now } }
  var sleeps: [Duration] { state.withLock { $0.sleeps } }

  func advance(milliseconds: Int64) {
    state.withLock { $0.now += milliseconds }
  }

  func sleep(_ duration: Duration) {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    state.withLock {
      $0.sleeps.append(duration)
      $0.now += milliseconds
    }
  }

  var outboxClock: OutboxClock {
    OutboxClock(now: { self.now }, sleep: { self.sleep($0) })
  }
}

/// SplitMix64 behind a lock: reproducible randomness.
final class SeededRandom: Sendable {
  private let state: Mutex<UInt64>

  init(seed: UInt64 = 0x5701C) { state = Mutex(seed) }

  func next() -> UInt64 {
    state.withLock { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  var outboxRandom: OutboxRandom { OutboxRandom { self.next() } }
}

/// Collects events.
final class EventRecorder: Sendable {
  private let storage = Mutex<[StoreEvent]>([])

  var sink: EventSink { EventSink { event in self.storage.withLock { $0.append(event) } } }
  var events: [StoreEvent] { storage.withLock { $0 } }

  func named(_ name: String) -> [StoreEvent] { events.filter { $0.name == name } }
}

/// Answers sends from a script, recording what was sent.
final class ScriptedReceiver: Sendable {
  private let state: Mutex<(script: [DeliveryResponse], sent: [(key: String, entries: [String])])>
  private let fallback: DeliveryResponse

  init(_ script: [DeliveryResponse], otherwise fallback: DeliveryResponse = .http(status: 200)) {
    state = Mutex((script, []))
    self.fallback = fallback
  }

  var sent: [(key: String, entries: [String])] { state.withLock { $0.sent } }

  func answer<Item>(_ batch: OutboxBatch<Item>) -> DeliveryResponse {
    state.withLock {
      $0.sent.append((batch.key, batch.entries.map(\.key)))
      return $0.script.isEmpty ? fallback : $0.script.removeFirst()
    }
  }
}

/// Options with a manual clock and seeded randomness.
func testOptions(
  clock: ManualClock = ManualClock(), random: SeededRandom = SeededRandom(),
  policy: RetryPolicy = .noRetry, compactAfter: Int? = nil
) -> OutboxOptions {
  var options = OutboxOptions()
  options.clock = clock.outboxClock
  options.random = random.outboxRandom
  options.retryPolicy = policy
  options.compactAfterRecords = compactAfter
  return options
}
