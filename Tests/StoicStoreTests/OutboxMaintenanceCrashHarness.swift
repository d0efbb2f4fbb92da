import StoicTesting
import Testing

@_spi(Testing) @testable import StoicStore

/// What recovery found after a maintenance crash.
struct RecoveredMaintenance {
  let engine: OutboxEngine<String>
  let disk: SimulatedFileSystem
  let scenario: OutboxMaintenanceScenario
}

/// Crash-explores requeue, discard, markUploaded and the removal of owned files when an entry
/// retires, with and without compaction and a reopen.
///
/// Acknowledgements recorded (a call that returned): `requeued:E1`, `discarded:E1`,
/// `uploaded:<key>:<file>`, `sent:E1` (the receiver has E1), `ack:<key>` (the drain's
/// acknowledgement of a delivered entry returned), `enq:E3`.
enum OutboxMaintenanceCrashHarness {
  static let directory = "/outbox"
  static let media = "/media"
  static let keys = ["E1", "E2", "E3"]
  /// The files each entry owns (and has to upload). E3 reuses a name E1 owned.
  static let ownedFiles: [String: [String]] = [
    "E1": ["/media/E1-a.jpg", "/media/E1-b.jpg"],
    "E2": ["/media/E2-a.jpg"],
    "E3": ["/media/E1-a.jpg"],
  ]

  static func item(_ key: String) -> String { "item-\(key)" }

  static func files(_ key: String) -> [String] { ownedFiles[key] ?? [] }

  /// The bytes of `file` as `key` owns it.
  static func photo(_ file: String, of key: String) -> [UInt8] {
    Array("photo \(file) of \(key == "E3" ? "E3" : "E1 or E2")".utf8)
  }

  static func open(
    _ fileSystem: any FileSystem, mutations: OutboxMutations, events: EventSink = .discard
  ) throws(StoreError) -> OutboxEngine<String> {
    var options = OutboxOptions()
    options.clock = OutboxClock(now: { 1_700_000_000_000 }, sleep: { _ in })
    options.random = OutboxSeededRandom(seed: 7).outboxRandom
    options.retryPolicy = .noRetry
    options.compactAfterRecords = nil
    options.mutations = mutations
    let journal = try Journal.open(directory: directory, fileSystem: fileSystem)
    return try OutboxEngine(
      log: JournalOutboxLog(journal: journal), codec: .utf8, fileSystem: fileSystem,
      options: options, events: events)
  }

  /// Plants E1's and E2's files, enqueues both and, when the action needs it, parks E1
  /// (422) and leaves E2 queued (503 stops the drain). The disk is settled afterwards.
  static func setup(_ scenario: OutboxMaintenanceScenario, _ disk: SimulatedFileSystem) throws {
    for key in ["E1", "E2"] {
      for file in files(key) { disk.setDurableContents(file, photo(file, of: key)) }
    }
    let engine = try open(disk, mutations: scenario.mutations)
    for key in ["E1", "E2"] {
      _ = try engine.enqueue(
        item(key), key: key, ownedFiles: files(key), filesToUpload: files(key))
    }
    if scenario.action.parksFirstEntry {
      var answers: [DeliveryResponse] = [.http(status: 422), .http(status: 503)]
      _ = try OutboxDrain(engine: engine, limits: .single).runSynchronously { _ in
        answers.isEmpty ? .http(status: 503) : answers.removeFirst()
      }
    }
    try engine.close()
  }

  static func operation(
    _ scenario: OutboxMaintenanceScenario, _ disk: SimulatedFileSystem,
    _ recorder: CrashRecorder
  ) throws {
    let door = OutboxRemoveFailingFileSystem(disk)
    door.failRemovals = scenario.removalFails
    let events = EventSink { event in
      if event.definition == StoreEvents.outboxDelivered {
        recorder.acknowledge("ack:\(event["key"] ?? "")")
      }
    }
    let engine = try open(door, mutations: scenario.mutations, events: events)
    if scenario.compaction { try engine.compact() }
    try perform(scenario, engine, disk, recorder)
    if scenario.compaction { try engine.compact() }
    if scenario.reopen {
      try engine.close()
      door.failRemovals = false
      _ = try open(door, mutations: scenario.mutations)
    }
  }

  static func perform(
    _ scenario: OutboxMaintenanceScenario, _ engine: OutboxEngine<String>,
    _ disk: SimulatedFileSystem, _ recorder: CrashRecorder
  ) throws {
    switch scenario.action {
    case .requeue:
      if scenario.defect == .requeueInMemoryOnly {
        engine.setState(.queued, forKeys: ["E1"])
      } else {
        try engine.requeue("E1")
      }
      recorder.acknowledge("requeued:E1")
    case .discard, .discardThenReusePath:
      if scenario.defect == .removeFilesBeforeDiscard {
        for file in files("E1") { try disk.remove(file) }
        try disk.syncDirectory(media)
      }
      if scenario.defect == .acknowledgeDiscardBeforeWriting {
        recorder.acknowledge("discarded:E1")
      }
      try engine.discard("E1")
      recorder.acknowledge("discarded:E1")
      if scenario.action == .discardThenReusePath {
        try reusePath(engine, disk, recorder)
      }
    case .markUploaded:
      for file in files("E1") {
        if scenario.defect == .acknowledgeUploadBeforeWriting {
          recorder.acknowledge("uploaded:E1:\(file)")
        }
        try engine.markUploaded(file, of: "E1")
        recorder.acknowledge("uploaded:E1:\(file)")
      }
    case .deliver:
      try deliver(engine, disk, recorder)
    }
  }

  /// The app saves a new photo, durably, under a name E1 owned, and enqueues E3 owning it.
  static func reusePath(
    _ engine: OutboxEngine<String>, _ disk: SimulatedFileSystem, _ recorder: CrashRecorder
  ) throws {
    let file = files("E3")[0]
    let handle = try disk.open(file, .createOrOpen)
    try disk.truncate(handle, to: 0)
    try disk.write(handle, photo(file, of: "E3"), at: 0)
    try disk.sync(handle)
    try disk.close(handle)
    try disk.syncDirectory(media)
    _ = try engine.enqueue(
      item("E3"), key: "E3", ownedFiles: files("E3"), filesToUpload: files("E3"))
    recorder.acknowledge("enq:E3")
  }

  /// Uploads every file of each entry sent (its upload list is empty before it retires);
  /// the receiver takes E1 and refuses E2 transiently.
  static func deliver(
    _ engine: OutboxEngine<String>, _ disk: SimulatedFileSystem, _ recorder: CrashRecorder
  ) throws {
    _ = try OutboxDrain(engine: engine, limits: .single).runSynchronously { batch in
      for entry in batch.entries {
        for file in entry.filesToUpload {
          do {
            try engine.markUploaded(file, of: entry.key)
          } catch {
            return .networkError("upload record failed: \(error)")
          }
          recorder.acknowledge("uploaded:\(entry.key):\(file)")
        }
        guard engine.ledger.entry(entry.key)?.filesToUpload == [] else {
          return .networkError("files left to upload")
        }
      }
      guard batch.key == "E1" else { return .http(status: 503) }
      // Directories are always durable: the delivery gets its own crash point.
      try? disk.createDirectory("/receiver/E1")
      recorder.acknowledge("sent:E1")
      return .http(status: 200)
    }
  }

  static func recover(_ scenario: OutboxMaintenanceScenario, _ disk: SimulatedFileSystem)
    throws -> RecoveredMaintenance
  {
    RecoveredMaintenance(
      engine: try open(disk, mutations: scenario.mutations), disk: disk, scenario: scenario)
  }
}
