/// Deliberate defects of the log spool, switched on only by the mutation tests (through
/// ``LogSpoolOptions/mutations``, testing SPI) to show that the crash suite catches them.
@_spi(Testing) public struct LogSpoolMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Records at or above the durable level return without waiting for their sync.
  public static let noDurableSync = LogSpoolMutations(rawValue: 1 << 0)
  /// A quota drop removes the records without first recording the drop as under way.
  public static let dropWithoutIntent = LogSpoolMutations(rawValue: 1 << 1)
}
