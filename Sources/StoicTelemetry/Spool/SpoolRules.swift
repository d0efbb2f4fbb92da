import StoicStore

/// The rules a telemetry spool keeps about its quota accounting and its log path, labelled as
/// the journal labels its segment rules: each one checked by a function of its own, asserted
/// (`assert`: debug builds only, never in a release build) where the state it covers changes,
/// and tested by driving the spool into that state.
///
/// | label | rule | asserted in |
/// | --- | --- | --- |
/// | @Q1 | A drop count never goes down: adding to it, or counting a removal that was under way, only makes it grow. | `SpoolDropCounters.add(_:reason:)`, `completeDrop()` |
/// | @Q2 | A removal of stored records is recorded as under way (its reason, count and last sequence) before the journal removes them. | `LogSpool.drop(_:reason:through:_:)` |
/// | @Q3 | The bytes retention counts as kept are the bytes of the segments it keeps: the quota is decided on what is on disk. | `LogSpool.enforceRetentionLocked(checkAge:)` |
/// | @Q4 | Retention removes sealed segments only, from the oldest on, each with a newer segment after it: never the active segment, nor one whose seal is pending. | `LogSpool.enforceRetentionLocked(checkAge:)` |
/// | @L1 | A log spool that takes records has no failure recorded: a disk error stops the log path before it is recorded, and recovery clears it before the path opens again. | `LogSpool.writeFailed(_:journal:)`, recovery |
///
/// Every check is cheap: a compare, or a pass over the few segments retention looks at anyway.
enum SpoolRules {
  /// @Q1 for one counter: `new` is not below `old`.
  static func countGrows(from old: UInt64, to new: UInt64) -> Bool { new >= old }

  /// @Q1 for every counter slot (those of reasons this build does not know included).
  static func countsGrow(from old: SpoolDropCounts, to new: SpoolDropCounts) -> Bool {
    old.slots.count == new.slots.count
      && zip(old.slots, new.slots).allSatisfy { countGrows(from: $0, to: $1) }
  }

  /// @Q2: the drop recorded as under way (`pending`, from ``SpoolDropCounters/pendingDrop``)
  /// is the removal about to be made.
  static func removalRecorded(
    _ pending: (count: UInt64, reason: SpoolDropReason, through: UInt64)?, count: UInt64,
    reason: SpoolDropReason, through: UInt64
  ) -> Bool {
    guard let pending else { return false }
    return pending.count == count && pending.reason == reason && pending.through == through
  }

  /// @Q3: `kept`, the bytes retention counted as left once it took its segments, is the sum of
  /// the bytes of the segments it keeps.
  static func keptBytesMatch(_ kept: UInt64, segments: ArraySlice<JournalSegmentInfo>) -> Bool {
    var sum: UInt64 = 0
    for segment in segments {
      let (next, overflow) = sum.addingReportingOverflow(segment.bytes)
      if overflow { return false }
      sum = next
    }
    return sum == kept
  }

  /// @Q4: the first `taken` of `segments` (oldest first, as ``Journal/segments()`` lists
  /// them) are sealed, and at least one segment is kept after them.
  static func removesOnlySealedOlder(_ segments: [JournalSegmentInfo], taken: Int) -> Bool {
    taken >= 0 && taken < max(segments.count, 1)
      && segments.prefix(taken).allSatisfy(\.isSealed)
  }

  /// @L1: a spool that is `writable` has no `failure` recorded.
  static func takesRecordsWithoutFailure(writable: Bool, failure: StoreError?) -> Bool {
    !writable || failure == nil
  }
}
