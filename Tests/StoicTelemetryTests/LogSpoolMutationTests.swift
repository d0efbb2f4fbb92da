@_spi(Testing) import StoicTelemetry
import StoicTesting
import Testing

/// The proof that the log spool's crash tests can fail: each deliberate defect of the spool,
/// switched on through the testing SPI, must make its exploration report the kind of
/// violation the defect causes. (The journal's and the outbox's defects are in the store
/// tests' `JournalAndOutboxMutationTests`, next to their scenarios.)
@Suite("Every deliberate defect of the log spool is caught by the crash suite")
struct LogSpoolMutationTests {
  /// The log spool's deliberate defects, each with the exploration that must catch it.
  enum Defect: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Durable-level records return before their sync: an acknowledged record is lost.
    case noDurableSync
    /// A quota drop is counted without being recorded as under way: the count disagrees
    /// with the records removed.
    case dropWithoutIntent

    var description: String { rawValue }

    /// The kind of violation the defect must cause.
    var expectedKind: CrashViolation.Kind {
      switch self {
      case .noDurableSync: .missingData
      case .dropWithoutIntent: .wrongState
      }
    }

    /// Explores the defect's scenario with the defect switched on (two images per crash
    /// point: the durable-only and the everything-kept image).
    func explore() -> CrashReport {
      switch self {
      case .noDurableSync:
        LogSpoolCrashTests.explore(
          options: LogSpoolCrashTests.options(mutations: .noDurableSync), images: 2)
      case .dropWithoutIntent:
        LogSpoolCrashTests.exploreQuota(
          options: LogSpoolCrashTests.quotaOptions(mutations: .dropWithoutIntent), images: 2)
      }
    }
  }

  @Test(
    "the defect makes the crash suite fail with its kind of violation", arguments: Defect.allCases)
  func isCaught(_ defect: Defect) {
    let report = CrashReportLog.$name.withValue("mutation \(defect)") { defect.explore() }
    #expect(report.violationKinds.contains(defect.expectedKind), "\(defect): \(report)")
  }
}
