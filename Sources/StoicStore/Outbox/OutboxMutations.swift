/// Deliberate defects of the outbox, switched on only by the mutation tests (through
/// ``OutboxOptions/mutations``, testing SPI) to show that the crash suite catches them.
@_spi(Testing) public struct OutboxMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Compaction leaves the first pending entry out of its snapshot.
  public static let snapshotDropsFirstEntry = OutboxMutations(rawValue: 1 << 0)
  /// Acknowledgements change memory but are never written to the journal.
  public static let skipAcknowledgementWrite = OutboxMutations(rawValue: 1 << 1)
  /// The drain acknowledges an entry before handing it to the delivery closure.
  public static let acknowledgeBeforeDelivering = OutboxMutations(rawValue: 1 << 2)
  /// Retiring an entry removes the files still to upload instead of the files it owns.
  public static let retireUsesUploadList = OutboxMutations(rawValue: 1 << 3)
}
