import Testing

@testable import StoicStore
@testable import StoicTesting

/// The seed's three mutations of the real journal, switched on through the internal test
/// hook: each must make the crash suite report a violation, which shows the suite can see the
/// defect it guards against.
@Suite("Journal mutations are caught by the crash suite")
struct JournalMutationTests {
  static func mutated(_ options: JournalOptions, _ mutation: JournalMutation) -> JournalOptions {
    var options = options
    options.mutations = [mutation]
    return options
  }

  @Test("no directory sync on create: an acknowledged record's segment name can vanish")
  func noDirectorySyncOnCreate() {
    let report = JournalCrashTests.singleAppendsScenario(
      options: Self.mutated(JournalOptions(), .noDirectorySyncOnCreate))
    #expect(!report.passed, "the mutation went unnoticed: \(report)")
    #expect(
      report.violations.contains { $0.message.contains("acknowledged record") },
      "\(report)")
  }

  @Test("no tail truncation: a record appended after a torn tail is lost or refused")
  func noTailTruncation() {
    let report = JournalCrashTests.tornTailScenario(
      options: Self.mutated(JournalOptions(), .noTailTruncation), crashRecovery: false)
    #expect(!report.passed, "the mutation went unnoticed: \(report)")
  }

  @Test("truncate before snapshot: covered segments vanish before the checkpoint is durable")
  func truncateBeforeSnapshot() {
    let report = JournalCrashTests.compactionScenario(
      options: Self.mutated(JournalTestSupport.smallSegments(), .truncateBeforeSnapshot),
      crashRecovery: false)
    #expect(!report.passed, "the mutation went unnoticed: \(report)")
  }

  @Test("truncate before the checkpoint in a drop: covered segments vanish first")
  func truncateBeforeDrop() {
    let report = JournalCrashTests.dropScenario(
      options: Self.mutated(JournalTestSupport.smallSegments(), .truncateBeforeSnapshot),
      crashRecovery: false)
    #expect(!report.passed, "the mutation went unnoticed: \(report)")
  }
}
