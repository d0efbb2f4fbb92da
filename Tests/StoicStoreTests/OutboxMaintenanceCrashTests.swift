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

/// Broken sequences and defects the maintenance checks must catch: each exploration is
/// expected to FAIL with the violation the defect causes.
@Suite struct OutboxMaintenanceMutationTests {
  func violations(_ scenario: OutboxMaintenanceScenario) -> [String] {
    OutboxMaintenanceCrashHarness.explore(scenario, defaultBudget: 2).violations.map(\.message)
  }

  @Test func aRequeueThatIsNeverWrittenIsCaught() {
    let scenario = OutboxMaintenanceScenario(action: .requeue, defect: .requeueInMemoryOnly)
    #expect(violations(scenario).contains { $0.contains("the requeue of E1 returned") })
  }

  @Test func aDiscardReportedBeforeItIsWrittenIsCaught() {
    let scenario = OutboxMaintenanceScenario(
      action: .discard, defect: .acknowledgeDiscardBeforeWriting)
    #expect(violations(scenario).contains { $0.contains("the discard of E1 returned") })
  }

  @Test func ownedFilesRemovedBeforeTheDiscardIsWrittenAreCaught() {
    let scenario = OutboxMaintenanceScenario(
      action: .discard, defect: .removeFilesBeforeDiscard)
    #expect(violations(scenario).contains { $0.contains("E1 is held and its owned file") })
  }

  @Test func anUploadReportedBeforeItIsWrittenIsCaught() {
    let scenario = OutboxMaintenanceScenario(
      action: .markUploaded, defect: .acknowledgeUploadBeforeWriting)
    #expect(violations(scenario).contains { $0.contains("was recorded and it is still to upload") })
  }

  @Test func retiringByTheUploadListIsCaught() {
    let scenario = OutboxMaintenanceScenario(action: .deliver, defect: .retireUsesUploadList)
    #expect(
      violations(scenario).contains {
        $0.contains("E1 left the outbox and its owned file /media/E1-a.jpg is still there")
      })
  }
}
