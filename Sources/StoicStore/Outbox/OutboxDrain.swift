/// One drain over the outbox, as a synchronous state machine.
///
/// The async loop in ``Outbox`` (and the synchronous driver the crash tests use) does only
/// the sending and the waiting; every decision is made here, so there is one implementation of
/// the rules:
/// - The drain walks the entries queued when it started, in order. A persisted batch is sent
///   as it was formed; otherwise, with batch limits above one entry, the next entries are
///   formed into a batch whose key and members are persisted before the first send.
/// - Each send is recorded as an attempt (the entries are in flight) before it starts.
/// - Delivered: acknowledged durably at once, owned files removed, next.
/// - Permanent failure: parked durably with its reason, next.
/// - Transient failure: retried after a jittered backoff (or the receiver's `Retry-After`)
///   while the entry's attempts and the drain's budget last; then back in line and the drain
///   stops.
final class OutboxDrain<Item: Sendable> {
  /// What the driver must do next.
  enum Action {
    /// Send this batch and report the response with ``received(_:)``.
    case send(OutboxBatch<Item>)
    /// Wait this long, then call ``resume()``.
    case wait(Duration)
    /// The drain is over.
    case finished(OutboxDrainReport)
  }

  private struct Unit {
    let key: String
    let isBatch: Bool
    var attempts = 0
    var target: OutboxTarget { isBatch ? .batch(key) : .entry(key) }
  }

  let engine: OutboxEngine<Item>
  private let limits: OutboxBatchLimits
  private let plan: [String]
  private var cursor = 0
  private var handled: Set<String> = []
  private var unit: Unit?
  private var retriesUsed = 0
  private var report = OutboxDrainReport()
  private var options: OutboxOptions { engine.options }

  init(engine: OutboxEngine<Item>, limits: OutboxBatchLimits) {
    self.engine = engine
    self.limits = limits
    self.plan = engine.ledger.entries.filter { $0.state == .queued && $0.isReadable }.map(\.key)
  }

  /// Starts the drain.
  func start() throws(StoreError) -> Action {
    let now = options.clock.now()
    if let notBefore = engine.notBefore, notBefore > now {
      report.haltedBecause = "the receiver asked to wait (Retry-After)"
      report.retryNotBefore = notBefore
      return .finished(report)
    }
    engine.notBefore = nil
    return try next()
  }

  /// Takes the response to the last send.
  func received(_ response: DeliveryResponse) throws(StoreError) -> Action {
    guard var current = unit else { return try next() }
    current.attempts += 1
    unit = current
    report.attempts += 1
    let classification = options.classifier.classify(
      response, nowMilliseconds: options.clock.now())
    switch classification {
    case .delivered(let rejected):
      let count = members(of: current).count
      if count > 0 {
        try engine.writeAcknowledgement(
          current.isBatch
            ? .acknowledgeBatch(batchKey: current.key) : .acknowledge(key: current.key))
      }
      report.delivered += count
      report.rejectedByReceiver += rejected
      engine.events.emit(
        StoreEvents.outboxDelivered,
        [("key", current.key), ("entries", String(count)), ("rejected", String(rejected))])
      engine.afterRetirement()
      unit = nil
      return try next()
    case .permanent(let reason):
      emitFailure(current, "permanent", reason)
      let parked = members(of: current).map(\.key)
      if !parked.isEmpty { try engine.write(.park(current.target, error: reason)) }
      for key in parked {
        engine.events.emit(
          StoreEvents.outboxParked, [("key", key), ("reason", reason)])
      }
      report.parked += parked.count
      unit = nil
      return try next()
    case .transient(let reason, let retryAfter):
      emitFailure(current, "transient", reason)
      if let retryAfter, retryAfter > options.retryPolicy.maxRetryAfter {
        let wait = retryAfter.clampedNanoseconds / 1_000_000
        engine.notBefore = options.clock.now() + Int64(clamping: wait)
        report.retryNotBefore = engine.notBefore
        return halt(reason)
      }
      let policy = options.retryPolicy
      guard current.attempts < policy.maxAttempts, retriesUsed < policy.drainBudget else {
        return halt(reason)
      }
      retriesUsed += 1
      return .wait(
        retryAfter
          ?? policy.delay(beforeRetry: current.attempts, random: options.random.next()))
    }
  }

  /// Continues after a wait: sends the same unit again, if anything of it is still pending.
  func resume() throws(StoreError) -> Action {
    guard let current = unit, !members(of: current).isEmpty else {
      unit = nil
      return try next()
    }
    return try send(current)
  }

  /// Ends the drain early (the task was cancelled): the unit in flight goes back in line.
  func stop(_ reason: String) -> Action {
    halt(reason)
  }

  /// After a thrown error: whatever was in flight goes back in line.
  func abandon() {
    if let current = unit {
      engine.setState(.queued, forKeys: members(of: current).map(\.key))
    }
    unit = nil
  }

  // MARK: Steps

  private func next() throws(StoreError) -> Action {
    while cursor < plan.count {
      let key = plan[cursor]
      cursor += 1
      guard !handled.contains(key), let entry = engine.ledger.entry(key),
        entry.state == .queued, entry.isReadable
      else { continue }
      if let batchKey = entry.batchKey {
        let batch = engine.ledger.members(ofBatch: batchKey)
        for member in batch { handled.insert(member.key) }
        guard batch.allSatisfy(\.isReadable), batch.allSatisfy({ $0.state == .queued }) else {
          continue
        }
        return try send(Unit(key: batchKey, isBatch: true))
      }
      handled.insert(key)
      guard limits.formsBatches else { return try send(Unit(key: key, isBatch: false)) }
      return try send(try formBatch(startingWith: entry))
    }
    return .finished(finish())
  }

  private func formBatch(startingWith first: StoredEntry) throws(StoreError) -> Unit {
    var keys = [first.key]
    var bytes = first.item.count
    var look = cursor
    while keys.count < limits.maxEntries, look < plan.count {
      let key = plan[look]
      look += 1
      guard !handled.contains(key), let entry = engine.ledger.entry(key),
        entry.state == .queued, entry.isReadable, entry.batchKey == nil
      else { continue }
      guard bytes + entry.item.count <= limits.maxBytes else { break }
      keys.append(key)
      bytes += entry.item.count
      handled.insert(key)
    }
    let batchKey = mintBatchKey()
    try engine.write(.formBatch(batchKey: batchKey, keys: keys))
    return Unit(key: batchKey, isBatch: true)
  }

  private func send(_ current: Unit) throws(StoreError) -> Action {
    try engine.write(.attempt(current.target))
    unit = current
    let entries = members(of: current).compactMap { engine.publicEntry($0) }
    if options.mutations.contains(.acknowledgeBeforeDelivering) {
      try engine.writeAcknowledgement(
        current.isBatch ? .acknowledgeBatch(batchKey: current.key) : .acknowledge(key: current.key))
    }
    return .send(
      OutboxBatch(
        key: current.key, entries: entries, isBatch: current.isBatch,
        attempt: current.attempts + 1))
  }

  private func halt(_ reason: String) -> Action {
    abandon()
    report.haltedBecause = reason
    return .finished(finish())
  }

  private func finish() -> OutboxDrainReport {
    engine.compactIfDue()
    return report
  }

  private func members(of unit: Unit) -> [StoredEntry] {
    engine.ledger.indices(of: unit.target).map { engine.ledger.entries[$0] }
  }

  private func emitFailure(_ unit: Unit, _ failure: String, _ reason: String) {
    engine.events.emit(
      StoreEvents.outboxDeliveryFailed,
      [("key", unit.key), ("failure", failure), ("reason", reason)])
  }

  private func mintBatchKey() -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = Array("batch-".utf8)
    for _ in 0..<2 {
      let value = options.random.next()
      for shift in stride(from: 60, through: 0, by: -4) {
        text.append(digits[Int((value >> UInt64(shift)) & 0xF)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
