/// Deliberate defects, switched on only by tests that check the suite catches them.
struct OutboxTestHooks: Sendable, Hashable {
  /// Compaction leaves the first pending entry out of its snapshot.
  var snapshotDropsFirstEntry = false
  /// Acknowledgements change memory but are never written to the journal.
  var skipAcknowledgementWrite = false
  /// The drain acknowledges an entry before handing it to the delivery closure.
  var acknowledgeBeforeDelivering = false
  /// Retiring an entry removes the files still to upload instead of the files it owns.
  var retireUsesUploadList = false

  static let none = OutboxTestHooks()
}
