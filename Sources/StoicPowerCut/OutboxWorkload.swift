import StoicStore
import StoicTesting

/// Outbox enqueues, drains (single entries and batches; some refused permanently and parked)
/// and acknowledgements outside a drain, with compaction inside the run.
///
/// Claims: an enqueue claims its key once it returned; a drain claims the keys it delivered
/// once it returned; an acknowledgement claims its key once it returned.
package struct OutboxWorkload: PowerCutWorkload {
  package let name = "outbox"
  package let summary =
    "outbox enqueue, drains of single entries and batches (some parked), acknowledge, compaction"
  package let isControl = false

  /// How many rounds of enqueues and deliveries the workload makes at most.
  static let rounds = 20_000

  package init() {}

  var options: OutboxOptions {
    var options = OutboxOptions()
    options.compactAfterRecords = 48
    options.rememberedDeliveredKeys = 1 << 20
    return options
  }

  var journalOptions: JournalOptions { JournalOptions(segmentSize: 64 << 10) }

  /// The key of item number `number`.
  static func key(_ number: Int) -> String { "k\(number)" }

  /// The number of a key made by ``key(_:)``.
  static func number(_ key: String) -> Int? {
    key.hasPrefix("k") ? Int(key.dropFirst()) : nil
  }

  func open(_ directory: String) throws(StoreError) -> Outbox<[UInt8]> {
    try Outbox(
      directory: StorePath.join(directory, "outbox"), fileSystem: PosixFileSystem(), codec: .bytes,
      options: options, journalOptions: journalOptions)
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let outbox = try open(directory)
    var random = SplitMix64(seed: seed)
    var next = 1
    for _ in 1...Self.rounds {
      for _ in 0...random.below(3) {
        let key = Self.key(next)
        try await outbox.enqueue(PowerCutPayload.item(next), key: key)
        try acknowledgements.claim(.enqueued(key))
        next += 1
      }
      switch random.below(3) {
      case 0:
        let delivered = PowerCutShared<[String]>([])
        let limits = random.below(2) == 0 ? OutboxBatchLimits.single : .init(maxEntries: 3)
        _ = try await outbox.deliverPending(batch: limits) { batch in
          // Every 17th item is refused for good: its entry (or batch) is parked.
          let keys = batch.entries.map(\.key)
          if keys.contains(where: { (Self.number($0) ?? 0) % 17 == 0 }) {
            return .http(status: 400)
          }
          delivered.update { $0 += keys }
          return .http(status: 200)
        }
        for key in delivered.value { try acknowledgements.claim(.retired(key)) }
      case 1:
        if let first = await outbox.pending.first {
          try await outbox.acknowledge(first.key)
          try acknowledgements.claim(.retired(first.key))
        }
      default:
        break
      }
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    do {
      let outbox = try open(directory)
      let retired = acknowledgements.retired
      let enqueued = acknowledgements.enqueued
      for key in enqueued where !retired.contains(key) {
        let state = await outbox.state(of: key)
        verdict.require(state != nil, "entry \(key) was claimed enqueued and is gone")
      }
      for key in retired.sorted() {
        let state = await outbox.state(of: key)
        verdict.require(
          state == .delivered,
          "entry \(key) was claimed delivered and is \(state.map { "\($0)" } ?? "unknown")")
      }
      let held = await outbox.pending + outbox.parked
      var seen = Set<String>()
      for entry in held {
        verdict.require(seen.insert(entry.key).inserted, "entry \(entry.key) is held twice")
        let number = Self.number(entry.key)
        verdict.require(
          number.map { entry.item == PowerCutPayload.item($0) } ?? false,
          "entry \(entry.key) does not hold its item (a mix or torn)")
      }
      let unreadable = await outbox.unreadable.count
      verdict.require(unreadable == 0, "\(unreadable) entries are unreadable")
      verdict.facts.append(
        "\(held.count) entries held; \(enqueued.count) enqueues and \(retired.count) deliveries "
          + "claimed")
      // The outbox accepts a write, and keeps it across another reopen.
      try await outbox.enqueue(PowerCutPayload.item(0), key: Self.key(0))
      try await outbox.close()
      let reopened = try open(directory)
      let state = await reopened.state(of: Self.key(0))
      try await reopened.close()
      verdict.require(
        state == .queued, "the entry enqueued after recovery is \(String(describing: state))")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
