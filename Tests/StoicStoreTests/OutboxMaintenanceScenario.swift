@_spi(Testing) @testable import StoicStore

/// What a maintenance crash scenario does to the outbox after its setup (E1 and E2 enqueued,
/// each owning files; for `requeue` and the discards, E1 parked and E2 queued).
enum OutboxMaintenanceAction: String, Sendable, CaseIterable {
  /// Puts the parked E1 back in line.
  case requeue
  /// Discards the parked E1.
  case discard
  /// Marks each of E1's files to upload as uploaded.
  case markUploaded
  /// Delivers E1 after uploading all its files (its upload list is empty when it retires);
  /// the receiver refuses E2 transiently, so it stays.
  case deliver
  /// Discards the parked E1, then the app saves a new file under one of E1's names and
  /// enqueues E3 owning it.
  case discardThenReusePath

  /// Whether the setup parks E1 (and leaves E2 queued after a transient refusal).
  var parksFirstEntry: Bool {
    switch self {
    case .requeue, .discard, .discardThenReusePath: true
    case .markUploaded, .deliver: false
    }
  }

  /// Whether the action retires E1 (so its owned files are to be removed).
  var retiresFirstEntry: Bool {
    switch self {
    case .discard, .deliver, .discardThenReusePath: true
    case .requeue, .markUploaded: false
    }
  }
}

/// A deliberately broken sequence (or outbox defect) that the maintenance checks must catch.
enum OutboxMaintenanceDefect: String, Sendable {
  /// The requeue changes the state in memory and writes nothing.
  case requeueInMemoryOnly
  /// The discard is reported done before its record is written.
  case acknowledgeDiscardBeforeWriting
  /// The owned files are removed before the discard is written.
  case removeFilesBeforeDiscard
  /// An upload is reported recorded before its record is written.
  case acknowledgeUploadBeforeWriting
  /// The outbox retires an entry by removing its files to upload instead of those it owns.
  case retireUsesUploadList
}

/// One crash-exploration scenario of the outbox's maintenance operations.
struct OutboxMaintenanceScenario: Sendable, CustomStringConvertible {
  var action: OutboxMaintenanceAction
  /// Compact before the action (the entries then live in the snapshot) and after it.
  var compaction = false
  /// Close and reopen the outbox after the action (reopening retries pending removals).
  var reopen = false
  /// Removing owned files fails until the outbox is reopened.
  var removalFails = false
  var defect: OutboxMaintenanceDefect?

  /// The outbox's own defect, for the one defect that is the outbox's rather than the
  /// sequence's.
  var mutations: OutboxMutations {
    defect == .retireUsesUploadList ? .retireUsesUploadList : []
  }

  var description: String {
    "\(action), compaction \(compaction), reopen \(reopen), removal fails \(removalFails)"
      + (defect.map { ", defect \($0)" } ?? "")
  }
}
