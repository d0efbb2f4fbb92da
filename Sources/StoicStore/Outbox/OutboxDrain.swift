/// One drain over the outbox, as a synchronous state machine.
///
/// The async loop in ``Outbox`` (and the synchronous driver the crash tests use) does only
/// the sending and the waiting; every decision is made here, so there is one implementation of
/// the rules:
/// - The drain walks the entries queued when it started, in order. A persisted batch is sent
///   as it was formed; otherwise, with batch limits above one entry, the next entries are
///   formed into a batch whose key and members are persisted before the first send.
/// - Each send is recorded as an attempt (the entries are in flight) before it starts.
/// - Up to `window` sends are in flight at once, started in order; their answers are taken as
///   they come.
/// - Delivered: acknowledged durably at once, owned files removed.
/// - Permanent failure: parked durably with its reason.
/// - Transient failure: no new send starts; once the sends in flight are answered, the unit is
///   sent again after a jittered backoff (or the receiver's `Retry-After`), alone, while the
///   entry's attempts and the drain's budget last; once it is delivered the units that failed
///   beside it go again and the window reopens. When the attempts or the budget run out, the
///   failed units go back in line and the drain stops once nothing is in flight.
///
/// With a window of one this is the outbox's original one-at-a-time drain.
///
/// With lanes (a function giving each item's lane, such as its signal), a `Retry-After` too long
/// to wait out holds only the lane of the unit it answered: that lane's units are left in line
/// until the time asked for, and the other lanes go on. Without lanes it holds the whole drain.
final class OutboxDrain<Item: Sendable> {
  /// What the driver must do next.
  enum Action {
    /// Start sending this batch, then call ``sent()``; report its answer with
    /// ``received(_:for:)``.
    case send(OutboxBatch<Item>)
    /// Wait for the answer to any send in flight and report it with ``received(_:for:)``.
    case awaitAnswer
    /// Wait this long, then call ``resume()``.
    case wait(Duration)
    /// The drain is over: nothing is in flight.
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
  /// Each item's lane, or `nil`: one lane (`""`) for all.
  private let lane: (@Sendable (Item) -> String)?
  /// How many sends may be in flight at once (at least 1).
  let window: Int
  private let plan: [String]
  private var cursor = 0
  private var handled: Set<String> = []
  /// Units sent and not answered yet, in the order they were sent.
  private var inFlight: [Unit] = []
  /// Units that failed transiently, to be sent again, in the order they failed.
  private var retries: [Unit] = []
  /// The wait before the first retry, set by a transient failure and cleared when it is over.
  private var backoff: Duration?
  /// A retry is out alone: nothing else starts until it is answered.
  private var probing = false
  /// Why the drain is stopping; it ends once nothing is in flight.
  private var haltReason: String?
  private var retriesUsed = 0
  private var report = OutboxDrainReport()
  private var options: OutboxOptions { engine.options }

  init(
    engine: OutboxEngine<Item>, limits: OutboxBatchLimits, window: Int = 1,
    lane: (@Sendable (Item) -> String)? = nil
  ) {
    self.engine = engine
    self.limits = limits
    self.window = max(window, 1)
    self.lane = lane
    self.plan = engine.ledger.entries.filter { $0.state == .queued && $0.isReadable }.map(\.key)
  }

  /// Starts the drain: the holds whose time has come are lifted; without lanes, one still on
  /// ends the drain at once.
  func start() throws(StoreError) -> Action {
    let now = options.clock.now()
    engine.notBefore = engine.notBefore.filter { $0.value > now }
    report.retryNotBefore = engine.notBefore.values.min()
    if lane == nil, report.retryNotBefore != nil {
      report.haltedBecause = "the receiver asked to wait (Retry-After)"
      return .finished(report)
    }
    return try step()
  }

  /// The lane of the entry keyed `key` (`""` without lanes, or for an item that is not there).
  private func laneOf(entry key: String) -> String {
    guard let lane, let item = engine.items[key] else { return "" }
    return lane(item)
  }

  /// The lane of `unit`: its first member's.
  private func laneOf(_ unit: Unit) -> String {
    guard let first = members(of: unit).first else { return "" }
    return laneOf(entry: first.key)
  }

  /// Whether `lane` is held by a receiver's `Retry-After`.
  private func isHeld(_ lane: String) -> Bool {
    engine.notBefore[lane] != nil
  }

  /// Continues after a ``Action/send(_:)`` has been started.
  func sent() throws(StoreError) -> Action {
    try step()
  }

  /// Takes the answer to the send of the unit keyed `key`.
  func received(_ response: DeliveryResponse, for key: String) throws(StoreError) -> Action {
    guard let index = inFlight.firstIndex(where: { $0.key == key }) else { return try step() }
    // The unit stays in flight until its outcome is written: a write that throws leaves it
    // there for ``abandon()`` to put back in line.
    var current = inFlight[index]
    current.attempts += 1
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
      assert(
        OutboxRules.deliveredLeft(members(of: current)),
        "@D3: \(current.key) is acknowledged and still holds entries")
      report.delivered += count
      report.rejectedByReceiver += rejected
      engine.events.emit(
        StoreEvents.outboxDelivered,
        [("key", current.key), ("entries", String(count)), ("rejected", String(rejected))])
      inFlight.remove(at: index)
      engine.afterRetirement()
      probing = false
    case .permanent(let reason):
      emitFailure(current, "permanent", reason)
      let parked = members(of: current).map(\.key)
      if !parked.isEmpty { try engine.write(.park(current.target, error: reason)) }
      assert(
        OutboxRules.parkedNeedAttention(
          parked.compactMap { engine.ledger.entry($0) }, reason: reason),
        "@D4: \(current.key) is parked and its entries do not all need attention")
      for key in parked {
        engine.events.emit(
          StoreEvents.outboxParked, [("key", key), ("reason", reason)])
      }
      report.parked += parked.count
      inFlight.remove(at: index)
      probing = false
    case .transient(let reason, let retryAfter):
      emitFailure(current, "transient", reason)
      try noteError(current, reason)
      inFlight.remove(at: index)
      probing = false
      failedTransiently(current, reason, retryAfter: retryAfter)
    case .halt(let reason):
      emitFailure(current, "halt", reason)
      try noteError(current, reason)
      inFlight.remove(at: index)
      probing = false
      report.haltedByReceiver = true
      if haltReason == nil {
        halt(current, reason)
      } else {
        requeue([current])
      }
    }
    return try step()
  }

  /// Continues after a wait: sends the first unit that failed again, alone, if anything of it
  /// is still pending.
  func resume() throws(StoreError) -> Action {
    backoff = nil
    guard let current = nextRetry() else { return try step() }
    probing = true
    return try send(current)
  }

  /// Ends the drain early (the task was cancelled): the units in flight go back in line.
  func stop(_ reason: String) -> Action {
    abandon()
    report.haltedBecause = reason
    return .finished(finish())
  }

  /// After a thrown error: whatever was in flight or waiting to be sent again goes back in line.
  func abandon() {
    requeue(inFlight + retries)
    inFlight = []
    retries = []
  }

  /// Stores `reason` durably as the last error of `unit`'s entries, unless it is already theirs
  /// (a receiver that keeps failing the same way costs one write, not one per attempt).
  private func noteError(_ unit: Unit, _ reason: String) throws(StoreError) {
    let entries = members(of: unit)
    guard entries.contains(where: { $0.lastError != reason }) else { return }
    try engine.write(.noteError(unit.target, error: reason))
  }

  /// A transient failure of `current`: retried after a backoff if the policy allows, else the
  /// drain stops.
  private func failedTransiently(_ current: Unit, _ reason: String, retryAfter: Duration?) {
    if haltReason != nil {
      requeue([current])
      return
    }
    if let retryAfter, retryAfter > options.retryPolicy.maxRetryAfter {
      let wait = min(retryAfter, options.retryPolicy.longestHold).clampedNanoseconds / 1_000_000
      let held = laneOf(current)
      let until = options.clock.now() + Int64(clamping: wait)
      engine.notBefore[held] = until
      report.retryNotBefore = min(report.retryNotBefore ?? until, until)
      guard lane != nil else { return halt(current, reason) }
      // Only this lane waits: it and its units waiting to be sent again go back in line.
      let waiting = retries.filter { laneOf($0) == held }
      retries.removeAll { laneOf($0) == held }
      requeue([current] + waiting)
      return
    }
    let policy = options.retryPolicy
    guard current.attempts < policy.maxAttempts, retriesUsed < policy.drainBudget else {
      return halt(current, reason)
    }
    retriesUsed += 1
    let wait =
      retryAfter ?? policy.delay(beforeRetry: current.attempts, random: options.random.next())
    backoff = max(backoff ?? .zero, wait)
    retries.append(current)
  }

  /// Stops the drain once nothing is in flight: `current` and the units waiting to be sent
  /// again go back in line.
  private func halt(_ current: Unit, _ reason: String) {
    haltReason = reason
    report.haltedBecause = reason
    backoff = nil
    requeue([current] + retries)
    retries = []
  }

  /// The first unit waiting to be sent again that still has pending entries, taken off the
  /// list.
  private func nextRetry() -> Unit? {
    while !retries.isEmpty {
      let current = retries.removeFirst()
      guard !members(of: current).isEmpty else { continue }
      guard !isHeld(laneOf(current)) else {
        requeue([current])
        continue
      }
      return current
    }
    return nil
  }

  /// Puts the entries of `units` back in line (in memory: an attempt record already says they
  /// were in flight, and an open puts such entries back in line too).
  private func requeue(_ units: [Unit]) {
    for unit in units { engine.setState(.queued, forKeys: members(of: unit).map(\.key)) }
  }

  /// What to do now: start a send while the window has room and nothing failed, wait for an
  /// answer, wait out a backoff, or finish.
  private func step() throws(StoreError) -> Action {
    if haltReason != nil || backoff != nil || probing {
      if !inFlight.isEmpty { return .awaitAnswer }
      if haltReason != nil { return .finished(finish()) }
      if let backoff { return .wait(backoff) }
    }
    if inFlight.count < window {
      if let unit = nextRetry() { return try send(unit) }
      if let unit = try nextUnit() { return try send(unit) }
    }
    return inFlight.isEmpty ? .finished(finish()) : .awaitAnswer
  }

  // MARK: Steps

  /// The next unit of the plan: a persisted batch, a new batch formed from the next entries, or
  /// the next entry; `nil` at the end of the plan.
  private func nextUnit() throws(StoreError) -> Unit? {
    while cursor < plan.count {
      let key = plan[cursor]
      cursor += 1
      guard !handled.contains(key), let entry = engine.ledger.entry(key),
        entry.state == .queued, entry.isReadable
      else { continue }
      // A held lane's entries stay in line for a later drain.
      guard !isHeld(laneOf(entry: key)) else { continue }
      if let batchKey = entry.batchKey {
        let batch = engine.ledger.members(ofBatch: batchKey)
        for member in batch { handled.insert(member.key) }
        guard batch.allSatisfy(\.isReadable), batch.allSatisfy({ $0.state == .queued }) else {
          continue
        }
        return Unit(key: batchKey, isBatch: true)
      }
      handled.insert(key)
      guard limits.formsBatches else { return Unit(key: key, isBatch: false) }
      return try formBatch(startingWith: entry)
    }
    return nil
  }

  private func formBatch(startingWith first: StoredEntry) throws(StoreError) -> Unit {
    var keys = [first.key]
    var bytes = first.item.count
    var look = cursor
    while keys.count < limits.maxEntries, look < plan.count {
      let key = plan[look]
      look += 1
      guard !handled.contains(key), let entry = engine.ledger.entry(key),
        entry.state == .queued, entry.isReadable, entry.batchKey == nil,
        laneOf(entry: key) == laneOf(entry: first.key)
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
    inFlight.append(current)
    assert(
      OutboxRules.attemptRecorded(members(of: current)),
      "@D1: \(current.key) is sent and its entries are not all in flight")
    assert(
      OutboxRules.windowKept(inFlight.map(\.key), window: window),
      "@D2: \(inFlight.count) units in flight for a window of \(window)")
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

  private func finish() -> OutboxDrainReport {
    if lane != nil { report.heldLanes = Set(engine.notBefore.keys) }
    assert(
      OutboxRules.finishedIdle(inFlight: inFlight.count, retries: retries.count),
      "@D5: the drain finishes with \(inFlight.count) in flight, \(retries.count) to retry")
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

/// What a delivery closure sends at once: one entry, or a batch of entries under one key.
public struct OutboxBatch<Item: Sendable>: Sendable {
  /// The idempotency key to send (for example as an `Idempotency-Key` header): the entry's own
  /// key for a single entry, a key minted and persisted with the batch otherwise. A batch
  /// resent after a restart carries the same key and the same entries.
  public let key: String
  /// The entries, in queue order.
  public let entries: [OutboxEntry<Item>]
  /// Whether this is a persisted multi-entry batch rather than a single entry under its own
  /// key.
  public let isBatch: Bool
  /// Which attempt this is within the current drain (1 for the first send).
  public let attempt: Int
}

/// What one drain did.
public struct OutboxDrainReport: Sendable, Hashable {
  /// Entries delivered and acknowledged.
  public var delivered: Int = 0
  /// Entries parked after a permanent failure.
  public var parked: Int = 0
  /// Items the receiver rejected inside delivered batches (OTLP partial success); not retried.
  public var rejectedByReceiver: Int = 0
  /// Delivery attempts made (sends, including retries).
  public var attempts: Int = 0
  /// Why the drain stopped before the end of the queue (the transient failure that ended it),
  /// or nil when it walked the whole queue.
  public var haltedBecause: String?
  /// When the receiver asked not to be sent to before (milliseconds since the Unix epoch), if
  /// a `Retry-After` too long to wait out ended the drain, or (with lanes) held a lane: the
  /// earliest such time.
  public var retryNotBefore: Int64?
  /// Whether the drain stopped on an answer the classifier called a halt
  /// (`DeliveryClassification.halt`: for OTLP, a 401 or 403, the credentials refused), which
  /// trying again unchanged will not fix, rather than on a transient failure.
  public var haltedByReceiver = false
  /// With lanes, those a receiver's `Retry-After` holds until ``retryNotBefore`` or later: their
  /// entries were left in line; the other lanes' went on.
  public var heldLanes: Set<String> = []

  /// An empty report.
  public init() {}
}
