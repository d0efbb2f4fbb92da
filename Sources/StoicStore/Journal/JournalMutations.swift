/// Deliberate defects of the journal, switched on only by the mutation tests (through
/// ``JournalOptions/mutations``, testing SPI) to show that the crash suite catches them. A
/// bit set, so that checking one on a write path costs a mask, not a hash.
@_spi(Testing) public struct JournalMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A created segment's name is never made durable (no directory sync after create).
  public static let noDirectorySyncOnCreate = JournalMutations(rawValue: 1 << 0)
  /// Open neither cuts a torn tail nor overwrites it: appends continue after the garbage.
  public static let noTailTruncation = JournalMutations(rawValue: 1 << 1)
  /// Dropping data removes the covered segments before the checkpoint that covers them is
  /// durable.
  public static let truncateBeforeSnapshot = JournalMutations(rawValue: 1 << 2)
  /// Sealing a segment leaves the zeros its mapping preallocated after its last frame.
  public static let keepPreallocationOnSeal = JournalMutations(rawValue: 1 << 3)
  /// A sync of the active segment does not first finish the pending seal of the segment
  /// before it.
  public static let syncBeforeSeal = JournalMutations(rawValue: 1 << 4)
  /// Zeros written ahead of the appends start at the chunk boundary below the active end,
  /// over the last frames, instead of the one above it.
  public static let zerosOverTheEnd = JournalMutations(rawValue: 1 << 5)
}
