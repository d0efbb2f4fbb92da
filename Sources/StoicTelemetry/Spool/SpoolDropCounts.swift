/// How many records a spool dropped, per reason, over its whole life (the counts survive
/// restarts, see ``SpoolDropCounters``).
public struct SpoolDropCounts: Sendable, Hashable, CustomStringConvertible {
  /// Every counter slot of the file, those of reasons this build does not know included (a
  /// newer build's), so that they are written back as they were.
  var slots: [UInt64]

  /// All zero.
  public init() {
    slots = Array(repeating: 0, count: SpoolDropCountersFormat.counterSlots)
  }

  /// The records dropped for `reason`.
  public subscript(reason: SpoolDropReason) -> UInt64 {
    get { slots[reason.rawValue] }
    set { slots[reason.rawValue] = newValue }
  }

  /// Dropped by the byte limit.
  public var quota: UInt64 { self[.quota] }
  /// Dropped by the age limit.
  public var age: UInt64 { self[.age] }
  /// Dropped after a disk error.
  public var diskError: UInt64 { self[.diskError] }
  /// Dropped because they could not be encoded.
  public var encoding: UInt64 { self[.encoding] }
  /// Every drop, of every reason (those of a newer build's reasons included).
  public var total: UInt64 { slots.reduce(0, &+) }

  /// `quota=N age=N disk_error=N encoding=N`.
  public var description: String {
    SpoolDropReason.allCases.map { "\($0)=\(self[$0])" }.joined(separator: " ")
  }
}
