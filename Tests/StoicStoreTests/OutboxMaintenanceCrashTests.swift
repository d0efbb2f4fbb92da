import StoicTesting
import Testing

@testable import StoicStore

/// Requeue, discard, markUploaded and the removal of owned files when an entry retires,
/// crashed at every point, with and without compaction and a reopen.
@Suite struct OutboxMaintenanceCrashTests {
  static let scenarios: [OutboxMaintenanceScenario] =
    OutboxMaintenanceAction.allCases.flatMap { action in
      [(false, false), (true, false), (true, true)].map { compaction, reopen in
        OutboxMaintenanceScenario(action: action, compaction: compaction, reopen: reopen)
      }
    }
    + [OutboxMaintenanceAction.discard, .deliver, .discardThenReusePath].map {
      OutboxMaintenanceScenario(action: $0, compaction: true, reopen: true, removalFails: true)
    }

  @Test(arguments: scenarios)
  func everyCrashPointKeepsTheMaintenancePromises(_ scenario: OutboxMaintenanceScenario) {
    let report = OutboxMaintenanceCrashHarness.explore(scenario)
    #expect(report.operationError == nil, "\(report)")
    #expect(report.crashPoints > 3)
    #expect(report.imagesChecked > report.crashPoints)
    #expect(report.passed, "\(report)")
  }
}
