import StoicTesting
import Testing

@_spi(Testing) @testable import StoicStore

/// One crash-exploration scenario of the outbox.
struct OutboxCrashScenario: Sendable, CustomStringConvertible {
  var compaction = false
  /// Which send (0 = the first) the receiver refuses permanently, if any.
  var permanentAt: Int?
  /// Entries per batch; 1 sends each entry under its own key.
  var batchSize = 1
  /// Sends in flight at once; their answers come in the order they were sent.
  var window = 1
  /// The entries are enqueued with one write (`enqueue(contentsOf:)`), not one by one.
  var enqueueTogether = false
  var mutations: OutboxMutations = []

  var description: String {
    "compaction \(compaction), permanent failure at \(permanentAt.map(String.init) ?? "none"), "
      + "batch \(batchSize), window \(window)\(enqueueTogether ? ", enqueued together" : "")"
  }
}

/// What recovery found.
struct RecoveredOutbox {
  let engine: OutboxEngine<String>
  let fileSystem: SimulatedFileSystem
  let scenario: OutboxCrashScenario
}

enum OutboxCrashHarness {
  static let directory = "/outbox"
  static let keys = ["E1", "E2", "E3", "E4"]

  static func item(_ key: String) -> String { "item-\(key)" }

  static func open(
    _ fileSystem: SimulatedFileSystem, mutations: OutboxMutations, seed: UInt64,
    events: EventSink = .discard
  ) throws(StoreError) -> OutboxEngine<String> {
    var options = OutboxOptions()
    options.clock = OutboxClock(now: { 1_700_000_000_000 }, sleep: { _ in })
    options.random = OutboxSeededRandom(seed: seed).outboxRandom
    options.retryPolicy = .noRetry
    options.compactAfterRecords = nil
    options.mutations = mutations
    let journal = try Journal.open(directory: directory, fileSystem: fileSystem)
    return try OutboxEngine(
      log: JournalOutboxLog(journal: journal), codec: .utf8, fileSystem: fileSystem,
      options: options, events: events)
  }

  /// Enqueues four entries (compacting after the second if asked), drains them once with one
  /// permanent refusal if asked (compacting again afterwards), recording what returned.
  ///
  /// Each delivery creates a directory: directories are always durable in the model, so the
  /// delivery gets its own place in the order of operations, and a crash point before it
  /// means the delivery had not happened.
  static func operation(
    _ scenario: OutboxCrashScenario, _ fileSystem: SimulatedFileSystem, _ recorder: CrashRecorder
  ) throws {
    let events = EventSink { event in
      if event.definition == StoreEvents.outboxDelivered {
        recorder.acknowledge("ack:\(event["key"] ?? "")")
      } else if event.definition == StoreEvents.outboxParked {
        recorder.acknowledge("parked:\(event["key"] ?? "")")
      }
    }
    let engine = try open(fileSystem, mutations: scenario.mutations, seed: 1, events: events)
    if scenario.enqueueTogether {
      _ = try engine.enqueue(contentsOf: keys.map { (item($0), $0) })
      for key in keys { recorder.acknowledge("enq:\(key)") }
      if scenario.compaction { try engine.compact() }
    }
    for (index, key) in keys.enumerated() where !scenario.enqueueTogether {
      _ = try engine.enqueue(item(key), key: key, ownedFiles: [], filesToUpload: [])
      recorder.acknowledge("enq:\(key)")
      if scenario.compaction && index == 1 { try engine.compact() }
    }
    var sends = 0
    let drain = OutboxDrain(
      engine: engine, limits: OutboxBatchLimits(maxEntries: scenario.batchSize),
      window: scenario.window)
    _ = try drain.runSynchronously { batch in
      let refused = scenario.permanentAt == sends
      sends += 1
      let entries = batch.entries.map(\.key)
      recorder.acknowledge("sent:\(batch.key)=\(entries.joined(separator: ","))")
      try? fileSystem.createDirectory("/receiver/\(sends)")
      if !refused { for key in entries { recorder.acknowledge("delivered:\(key)") } }
      return refused ? .http(status: 422) : .http(status: 200)
    }
    if scenario.compaction { try engine.compact() }
  }

  static func recover(_ scenario: OutboxCrashScenario, _ fileSystem: SimulatedFileSystem) throws
    -> RecoveredOutbox
  {
    RecoveredOutbox(
      engine: try open(fileSystem, mutations: [], seed: 99), fileSystem: fileSystem,
      scenario: scenario)
  }

  /// The seed's invariants, plus: parks that returned are parked, and batches resent after a
  /// crash carry the same key and entries.
  static func check(_ state: RecoveredOutbox, _ context: CrashContext) throws {
    let done = Set(context.acknowledged)
    var formed: [String: [String]] = [:]
    for line in context.attempted where line.hasPrefix("sent:") {
      let parts = line.dropFirst(5).split(separator: "=", maxSplits: 1).map(String.init)
      formed[parts[0]] = parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : []
    }
    let acknowledged = Set(
      done.filter { $0.hasPrefix("ack:") }.flatMap { line -> [String] in
        let key = String(line.dropFirst(4))
        return formed[key] ?? [key]
      })
    let held = state.engine.ledger.entries
    let heldKeys = held.map(\.key)
    try context.require(
      isSubsequence(heldKeys, of: keys), "held \(heldKeys) is not a subsequence of \(keys)")
    for entry in held {
      try context.require(
        entry.item == Array(item(entry.key).utf8) && entry.isReadable,
        "entry \(entry.key) is not intact")
    }
    for key in keys where done.contains("enq:\(key)") && !done.contains("delivered:\(key)") {
      try context.require(
        heldKeys.contains(key), .missingData,
        "\(key) was enqueued, its delivery had not finished, and it is missing")
    }
    for key in acknowledged {
      try context.require(
        !heldKeys.contains(key), .revertedOperation, "\(key) was acknowledged and is still held")
    }
    for key in keys where done.contains("parked:\(key)") {
      try context.require(
        state.engine.ledger.entry(key)?.state == .needsAttention, .revertedOperation,
        "\(key) was parked and is not parked now")
    }
    try checkDeliversExactlyWhatIsPending(state, formed: formed)
  }

  static func checkDeliversExactlyWhatIsPending(
    _ state: RecoveredOutbox, formed: [String: [String]]
  ) throws {
    let engine = state.engine
    let queued = engine.ledger.entries.filter { $0.state != .needsAttention }.map(\.key)
    let parked = engine.ledger.entries.filter { $0.state == .needsAttention }.map(\.key)
    var sent: [(key: String, entries: [String])] = []
    let drain = OutboxDrain(
      engine: engine, limits: OutboxBatchLimits(maxEntries: state.scenario.batchSize))
    _ = try drain.runSynchronously { batch in
      sent.append((batch.key, batch.entries.map(\.key)))
      return .http(status: 200)
    }
    guard sent.flatMap(\.entries) == queued else {
      throw Failure("the recovered outbox sent \(sent) for pending \(queued)")
    }
    for batch in sent {
      if let original = formed[batch.key], original != batch.entries {
        throw Failure("batch \(batch.key) was \(original) and is resent as \(batch.entries)")
      }
    }
    guard engine.ledger.entries.map(\.key) == parked else {
      throw Failure("after delivery, \(engine.ledger.entries.map(\.key)) are held")
    }
    guard try engine.enqueue("item-new", key: "new", ownedFiles: [], filesToUpload: []) else {
      throw Failure("the recovered outbox refused a new entry")
    }
    try engine.close()
    let reopened = try open(state.fileSystem, mutations: [], seed: 100)
    guard reopened.ledger.entries.map(\.key) == parked + ["new"] else {
      throw Failure("after reopening, \(reopened.ledger.entries.map(\.key)) are held")
    }
  }

  static func explore(_ scenario: OutboxCrashScenario, defaultBudget: Int = 16) -> CrashReport {
    CrashExplorer(budget: .fromEnvironment(default: defaultBudget)).explore(
      operation: { fileSystem, recorder in try operation(scenario, fileSystem, recorder) },
      recover: { fileSystem in try recover(scenario, fileSystem) },
      check: { state, context in try check(state, context) })
  }

  static func isSubsequence(_ values: [String], of sequence: [String]) -> Bool {
    var remaining = sequence[...]
    for value in values {
      guard let index = remaining.firstIndex(of: value) else { return false }
      remaining = remaining[remaining.index(after: index)...]
    }
    return true
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

@Suite struct OutboxCrashTests {
  static let scenarios: [OutboxCrashScenario] =
    [false, true].flatMap { compaction in
      [nil, 0, 1].flatMap { permanentAt in
        [1, 2].map {
          OutboxCrashScenario(compaction: compaction, permanentAt: permanentAt, batchSize: $0)
        }
      }
    }
    + [nil, 1].flatMap { permanentAt in
      [(1, 2), (1, 3), (2, 2)].map {
        OutboxCrashScenario(
          compaction: permanentAt == nil, permanentAt: permanentAt, batchSize: $0.0,
          window: $0.1)
      }
    }
    + [false, true].map {
      OutboxCrashScenario(
        compaction: $0, permanentAt: $0 ? nil : 2, window: 2, enqueueTogether: true)
    }

  @Test(arguments: scenarios)
  func everyCrashPointKeepsTheOutboxsPromises(_ scenario: OutboxCrashScenario) {
    let report = OutboxCrashHarness.explore(scenario)
    #expect(report.crashPoints > 20)
    #expect(report.imagesChecked > report.crashPoints)
    #expect(report.passed, "\(report.violations.prefix(3).map(\.description))")
  }
}
