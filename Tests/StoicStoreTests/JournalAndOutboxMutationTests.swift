import Testing

@_spi(Testing) @testable import StoicStore
@testable import StoicTesting

/// The proof that the crash tests can fail: each deliberate defect of the journal or the
/// outbox, switched on through the testing SPI (``JournalOptions/mutations``,
/// ``OutboxOptions/mutations``) or written into the explored sequence, must make its crash
/// exploration report the kind of violation the defect causes. (The log spool's defects are in
/// the telemetry tests' `LogSpoolMutationTests`, next to their scenarios.)
@Suite("Every deliberate defect is caught by the crash suite")
struct JournalAndOutboxMutationTests {
  /// A deliberate defect and the scenario that must catch it.
  enum Defect: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A created segment's name is never made durable: an acknowledged record's segment can
    /// vanish.
    case journalNoDirectorySyncOnCreate
    /// The same defect when a sync seals the segment before it (`.never` policy, rolls).
    case journalNoDirectorySyncOnSeal
    /// Open leaves a torn tail in place and appends after it.
    case journalNoTailTruncation
    /// A snapshot's covered segments are removed before the checkpoint is durable.
    case journalTruncateBeforeSnapshot
    /// A drop's covered segments are removed before its checkpoint is durable.
    case journalTruncateBeforeDrop
    /// A seal keeps the zeros the mapping preallocated after the last frame.
    case journalKeepPreallocationOnSeal
    /// A sync makes the active segment durable before the pending seal of the one before.
    case journalSyncBeforeSeal
    /// Zeros written ahead of the appends start below the active end, over the last frames.
    case journalZerosOverTheEnd
    /// Compaction leaves the first pending entry out of its snapshot.
    case outboxSnapshotDropsFirstEntry
    /// Acknowledgements change memory and are never written.
    case outboxSkipAcknowledgementWrite
    /// The drain acknowledges an entry before delivering it.
    case outboxAcknowledgeBeforeDelivering
    /// The same, for a batch of two entries.
    case outboxBatchAcknowledgesBeforeDelivering
    /// Acknowledgements change memory and are never written, with two sends in flight.
    case outboxWindowSkipsAcknowledgementWrite
    /// Retiring an entry removes its files to upload instead of the files it owns.
    case outboxRetireUsesUploadList
    /// The sequence requeues in memory and writes nothing.
    case outboxRequeueInMemoryOnly
    /// The sequence reports a discard done before its record is written.
    case outboxAcknowledgeDiscardBeforeWriting
    /// The sequence removes the owned files before the discard is written.
    case outboxRemoveFilesBeforeDiscard
    /// The sequence reports an upload recorded before its record is written.
    case outboxAcknowledgeUploadBeforeWriting

    var description: String { rawValue }

    /// The kind of violation the defect must cause.
    var expectedKind: CrashViolation.Kind {
      switch self {
      case .journalNoDirectorySyncOnCreate, .journalNoDirectorySyncOnSeal, .journalSyncBeforeSeal,
        .outboxSnapshotDropsFirstEntry, .outboxAcknowledgeBeforeDelivering,
        .outboxBatchAcknowledgesBeforeDelivering, .outboxRemoveFilesBeforeDiscard:
        .missingData
      // Open refuses the disks these leave behind.
      case .journalNoTailTruncation, .journalTruncateBeforeSnapshot, .journalTruncateBeforeDrop,
        .journalKeepPreallocationOnSeal, .journalZerosOverTheEnd:
        .recoveryThrew
      case .outboxSkipAcknowledgementWrite, .outboxWindowSkipsAcknowledgementWrite,
        .outboxRequeueInMemoryOnly,
        .outboxAcknowledgeDiscardBeforeWriting, .outboxAcknowledgeUploadBeforeWriting:
        .revertedOperation
      case .outboxRetireUsesUploadList:
        .leftBehind
      }
    }

    /// Explores the defect's scenario with the defect in place.
    func explore() -> CrashReport {
      switch self {
      case .journalNoDirectorySyncOnCreate:
        JournalCrashTests.singleAppendsScenario(
          options: Self.journal(JournalOptions(), .noDirectorySyncOnCreate))
      case .journalNoDirectorySyncOnSeal:
        JournalDeferredSealTests.neverPolicyRollsScenario(
          options: Self.journal(
            JournalDeferredSealTests.neverPolicyOptions(mapped: true), .noDirectorySyncOnCreate))
      case .journalNoTailTruncation:
        JournalCrashTests.tornTailScenario(
          options: Self.journal(JournalOptions(), .noTailTruncation), crashRecovery: false)
      case .journalTruncateBeforeSnapshot:
        JournalCrashTests.compactionScenario(
          options: Self.journal(JournalTestSupport.smallSegments(), .truncateBeforeSnapshot),
          crashRecovery: false)
      case .journalTruncateBeforeDrop:
        JournalCrashTests.dropScenario(
          options: Self.journal(JournalTestSupport.smallSegments(), .truncateBeforeSnapshot),
          crashRecovery: false)
      case .journalKeepPreallocationOnSeal:
        JournalMappingTests.rollsScenario(
          options: Self.journal(
            JournalTestSupport.smallSegments(compress: false), .keepPreallocationOnSeal))
      case .journalSyncBeforeSeal:
        JournalDeferredSealTests.neverPolicyRollsScenario(
          options: Self.journal(
            JournalDeferredSealTests.neverPolicyOptions(mapped: true), .syncBeforeSeal))
      case .journalZerosOverTheEnd:
        JournalMappingTests.rollsScenario(
          options: Self.journal(
            JournalTestSupport.smallSegments(compress: false), .zerosOverTheEnd))
      case .outboxSnapshotDropsFirstEntry:
        Self.outbox(OutboxCrashScenario(compaction: true), .snapshotDropsFirstEntry)
      case .outboxSkipAcknowledgementWrite:
        Self.outbox(OutboxCrashScenario(), .skipAcknowledgementWrite)
      case .outboxAcknowledgeBeforeDelivering:
        Self.outbox(OutboxCrashScenario(), .acknowledgeBeforeDelivering)
      case .outboxBatchAcknowledgesBeforeDelivering:
        Self.outbox(OutboxCrashScenario(batchSize: 2), .acknowledgeBeforeDelivering)
      case .outboxWindowSkipsAcknowledgementWrite:
        Self.outbox(OutboxCrashScenario(window: 2), .skipAcknowledgementWrite)
      case .outboxRetireUsesUploadList:
        Self.maintenance(.deliver, .retireUsesUploadList)
      case .outboxRequeueInMemoryOnly:
        Self.maintenance(.requeue, .requeueInMemoryOnly)
      case .outboxAcknowledgeDiscardBeforeWriting:
        Self.maintenance(.discard, .acknowledgeDiscardBeforeWriting)
      case .outboxRemoveFilesBeforeDiscard:
        Self.maintenance(.discard, .removeFilesBeforeDiscard)
      case .outboxAcknowledgeUploadBeforeWriting:
        Self.maintenance(.markUploaded, .acknowledgeUploadBeforeWriting)
      }
    }

    static func journal(_ options: JournalOptions, _ mutation: JournalMutations)
      -> JournalOptions
    {
      var options = options
      options.mutations = mutation
      return options
    }

    static func outbox(_ scenario: OutboxCrashScenario, _ mutation: OutboxMutations)
      -> CrashReport
    {
      var scenario = scenario
      scenario.mutations = mutation
      return OutboxCrashHarness.explore(scenario, defaultBudget: 4)
    }

    static func maintenance(_ action: OutboxMaintenanceAction, _ defect: OutboxMaintenanceDefect)
      -> CrashReport
    {
      OutboxMaintenanceCrashHarness.explore(
        OutboxMaintenanceScenario(action: action, defect: defect), defaultBudget: 2)
    }
  }

  @Test(
    "the defect makes the crash suite fail with its kind of violation", arguments: Defect.allCases)
  func isCaught(_ defect: Defect) {
    let report = CrashReportLog.$name.withValue("mutation \(defect)") { defect.explore() }
    #expect(report.violationKinds.contains(defect.expectedKind), "\(defect): \(report)")
  }
}
