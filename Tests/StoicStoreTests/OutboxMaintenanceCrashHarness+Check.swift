import StoicTesting

@_spi(Testing) @testable import StoicStore

extension OutboxMaintenanceCrashHarness {
  /// The maintenance invariants, on what recovery found:
  /// - nothing is lost: E2 is always held; E1 is held unless its discard or delivery had
  ///   begun; E3 is held once its enqueue returned; every held entry is intact;
  /// - a requeue that returned left E1 queued, last in line; before it returned E1 is parked
  ///   or queued (an E1 that is not discarded stays parked);
  /// - a discard that returned: E1 is gone and remembered as retired (a late duplicate does
  ///   not bring it back);
  /// - an upload record that returned: the file is no longer to upload; owned files never
  ///   change, and the files to upload stay a subsequence of the original list;
  /// - an entry still held has all its owned files, as it wrote them; an entry that left
  ///   (delivered or discarded) has none left once recovery has run, durably;
  /// - the recovered outbox delivers exactly what is queued, removes the files of what it
  ///   delivers, and after compaction and a reopen holds the parked entries with their files.
  static func check(_ state: RecoveredMaintenance, _ context: CrashContext) throws {
    let done = Set(context.acknowledged)
    try checkNothingLost(state, context, done)
    try checkRequeueAndDiscard(state, context, done)
    try checkUploads(state, context, done)
    try checkOwnedFiles(state, context)
    try checkRecoveredOutboxWorks(state, context)
  }

  static func checkNothingLost(
    _ state: RecoveredMaintenance, _ context: CrashContext, _ done: Set<String>
  ) throws {
    let ledger = state.engine.ledger
    let heldKeys = ledger.entries.map(\.key)
    for entry in ledger.entries {
      try context.require(
        entry.isReadable && entry.item == Array(item(entry.key).utf8),
        "entry \(entry.key) is not intact")
    }
    try context.require(
      heldKeys.contains("E2"), .missingData, "E2 was never retired and is missing")
    if !heldKeys.contains("E1") {
      switch state.scenario.action {
      case .discard, .discardThenReusePath:
        break
      case .deliver:
        try context.require(
          done.contains("sent:E1"), .missingData, "E1 is missing and its delivery had not happened")
      case .requeue, .markUploaded:
        try context.require(false, .missingData, "E1 was never retired and is missing")
      }
      try context.require(
        ledger.isRetired("E1"), .revertedOperation, "E1 left the outbox and its key is forgotten")
    }
    if done.contains("enq:E3") {
      try context.require(
        heldKeys.contains("E3"), .missingData, "E3's enqueue returned and E3 is missing")
    }
    if done.contains("ack:E1") {
      try context.require(
        !heldKeys.contains("E1"), .revertedOperation,
        "E1's acknowledgement returned and E1 is still held")
    }
  }

  static func checkRequeueAndDiscard(
    _ state: RecoveredMaintenance, _ context: CrashContext, _ done: Set<String>
  ) throws {
    let ledger = state.engine.ledger
    let heldKeys = ledger.entries.map(\.key)
    if done.contains("discarded:E1") {
      try context.require(
        !heldKeys.contains("E1"), .revertedOperation,
        "the discard of E1 returned and E1 is still held")
    }
    guard let first = ledger.entry("E1") else { return }
    switch state.scenario.action {
    case .requeue:
      if done.contains("requeued:E1") {
        try context.require(
          first.state == .queued && heldKeys.last == "E1", .revertedOperation,
          "the requeue of E1 returned and E1 is \(first.state) in \(heldKeys)")
      } else {
        try context.require(
          first.state == .needsAttention || first.state == .queued,
          "E1 is \(first.state) while its requeue ran")
      }
    case .discard, .discardThenReusePath:
      try context.require(
        first.state == .needsAttention, "E1 was parked, not discarded, and is \(first.state)")
    case .markUploaded, .deliver:
      break
    }
  }

  static func checkUploads(
    _ state: RecoveredMaintenance, _ context: CrashContext, _ done: Set<String>
  ) throws {
    for entry in state.engine.ledger.entries {
      let original = files(entry.key)
      try context.require(
        entry.ownedFiles == original,
        "\(entry.key) owns \(entry.ownedFiles), not \(original): owned files were changed")
      try context.require(
        OutboxCrashHarness.isSubsequence(entry.filesToUpload, of: original),
        "\(entry.key) has \(entry.filesToUpload) to upload, not part of \(original)")
      for file in original where done.contains("uploaded:\(entry.key):\(file)") {
        try context.require(
          !entry.filesToUpload.contains(file), .revertedOperation,
          "the upload of \(file) of \(entry.key) was recorded and it is still to upload")
      }
    }
  }

  /// Held entries have their files, as written; files of entries that left are gone, durably.
  static func checkOwnedFiles(_ state: RecoveredMaintenance, _ context: CrashContext) throws {
    let disk = state.disk
    let held = state.engine.ledger.entries
    let ownedByHeld = Set(held.flatMap(\.ownedFiles))
    for entry in held {
      for file in entry.ownedFiles {
        try context.require(
          disk.contents(file) == photo(file, of: entry.key), .missingData,
          "\(entry.key) is held and its owned file \(file) is "
            + (disk.contents(file) == nil ? "missing" : "not the one it owns"))
      }
    }
    for key in ["E1", "E2"] where !held.contains(where: { $0.key == key }) {
      for file in files(key) where !ownedByHeld.contains(file) {
        try context.require(
          disk.contents(file) == nil && disk.durableContents(file) == nil, .leftBehind,
          "\(key) left the outbox and its owned file \(file) is still there after recovery")
      }
    }
  }

  /// The recovered outbox sends exactly the queued entries, removes their files, and after
  /// compaction and a reopen holds only the parked entries, with their files.
  static func checkRecoveredOutboxWorks(_ state: RecoveredMaintenance, _ context: CrashContext)
    throws
  {
    let engine = state.engine
    let queued = engine.ledger.entries.filter { $0.state != .needsAttention }.map(\.key)
    let parked = engine.ledger.entries.filter { $0.state == .needsAttention }
    var sent: [String] = []
    _ = try OutboxDrain(engine: engine, limits: .single).runSynchronously { batch in
      sent += batch.entries.map(\.key)
      return .http(status: 200)
    }
    try context.require(sent == queued, "the recovered outbox sent \(sent) for \(queued)")
    try engine.compact()
    try engine.close()
    let reopened = try open(state.disk, mutations: state.scenario.mutations)
    let heldKeys = reopened.ledger.entries.map(\.key)
    try context.require(
      heldKeys == parked.map(\.key),
      "after delivery, compaction and a reopen, \(heldKeys) are held, not \(parked.map(\.key))")
    let keep = Set(parked.flatMap(\.ownedFiles))
    for file in Set(ownedFiles.values.flatMap { $0 }) where !keep.contains(file) {
      try context.require(
        state.disk.contents(file) == nil, .leftBehind,
        "\(file) belongs to no entry held after delivery and a reopen, and is still there")
    }
    for entry in parked {
      for file in entry.ownedFiles {
        try context.require(
          state.disk.contents(file) == photo(file, of: entry.key), .missingData,
          "the parked \(entry.key) lost its owned file \(file) after delivery and a reopen")
      }
    }
    try reopened.close()
  }

  static func explore(_ scenario: OutboxMaintenanceScenario, defaultBudget: Int = 8)
    -> CrashReport
  {
    CrashExplorer(budget: .fromEnvironment(default: defaultBudget)).explore(
      setup: { disk in try setup(scenario, disk) },
      operation: { disk, recorder in try operation(scenario, disk, recorder) },
      recover: { disk in try recover(scenario, disk) },
      check: { state, context in try check(state, context) })
  }
}
