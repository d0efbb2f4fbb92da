import StoicTesting
import Testing

@_spi(Testing) @testable import StoicStore

/// Each maintenance invariant can fail: the check is run on a disk prepared to break it and
/// must report the violation (the broken sequences the explorer runs are in
/// ``JournalAndOutboxMutationTests``).
@Suite struct OutboxMaintenanceCheckTests {
  typealias Harness = OutboxMaintenanceCrashHarness

  /// The violation `check` reports after `prepare` ran on the scenario's settled setup, with
  /// `acknowledged` as what had returned; nil if it reports none.
  func violation(
    _ action: OutboxMaintenanceAction, acknowledged: [String] = [],
    _ prepare: (OutboxEngine<String>, SimulatedFileSystem) throws -> Void
  ) throws -> String? {
    let scenario = OutboxMaintenanceScenario(action: action)
    let disk = SimulatedFileSystem()
    try Harness.setup(scenario, disk)
    let engine = try Harness.open(disk, mutations: [])
    try prepare(engine, disk)
    try engine.close()
    disk.settle()
    let context = CrashContext(
      crashPoint: 0, totalPoints: 0, acknowledged: acknowledged, attempted: acknowledged,
      image: "prepared")
    do {
      try Harness.check(try Harness.recover(scenario, disk), context)
      return nil
    } catch let violation as CrashViolation {
      return violation.message
    }
  }

  @Test func anUntouchedSetupPasses() throws {
    for action in OutboxMaintenanceAction.allCases {
      #expect(try violation(action) { _, _ in } == nil, "\(action)")
    }
  }

  @Test func anEntryNeverRetiredThatIsMissingFails() throws {
    let message = try violation(.markUploaded) { engine, _ in try engine.discard("E2") }
    #expect(message == "E2 was never retired and is missing")
  }

  @Test func anEntryGoneBeforeItsDeliveryFails() throws {
    let message = try violation(.deliver) { engine, _ in try engine.discard("E1") }
    #expect(message == "E1 is missing and its delivery had not happened")
  }

  @Test func anAcknowledgedEntryStillHeldFails() throws {
    let message = try violation(.deliver, acknowledged: ["sent:E1", "ack:E1"]) { _, _ in }
    #expect(message == "E1's acknowledgement returned and E1 is still held")
  }

  @Test func aReturnedEnqueueThatIsMissingFails() throws {
    let message = try violation(.discardThenReusePath, acknowledged: ["enq:E3"]) { _, _ in }
    #expect(message == "E3's enqueue returned and E3 is missing")
  }

  @Test func aParkedEntryThatMovedWithoutARequeueFails() throws {
    let message = try violation(.discard) { engine, _ in try engine.requeue("E1") }
    #expect(message == "E1 was parked, not discarded, and is queued")
  }

  @Test func changedOwnedFilesFail() throws {
    let message = try violation(.discardThenReusePath) { engine, _ in
      _ = try engine.enqueue(
        Harness.item("E3"), key: "E3", ownedFiles: [], filesToUpload: Harness.files("E3"))
    }
    #expect(message?.hasSuffix("owned files were changed") == true)
  }

  @Test func anOwnedFileOverwrittenWhileHeldFails() throws {
    let message = try violation(.requeue) { _, disk in
      disk.setDurableContents("/media/E2-a.jpg", Array("someone else's".utf8))
    }
    #expect(message == "E2 is held and its owned file /media/E2-a.jpg is not the one it owns")
  }

  @Test func aRetiredEntrysFileLeftBehindFails() throws {
    let message = try violation(.discard) { engine, disk in
      try engine.discard("E1")
      // The removal ran and compaction dropped it from the list: nothing will remove a copy
      // put back afterwards.
      try engine.compact()
      disk.setDurableContents("/media/E1-b.jpg", Array("restored from a backup".utf8))
    }
    #expect(
      message
        == "E1 left the outbox and its owned file /media/E1-b.jpg is still there after recovery"
    )
  }
}
