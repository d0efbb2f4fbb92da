/// What one read of the log spool (``LogSpool/forEachRecord(from:through:_:)``) went over.
public struct LogReadSummary: Sendable, Hashable {
  /// Records decoded and handed out.
  public var records = 0
  /// Unreadable records handed out (the newer ones included).
  public var unreadable = 0
  /// Of ``unreadable``, the records a newer build wrote.
  public var newerVersion = 0
  /// The last sequence handed out, or `nil` when the read found nothing.
  public var lastSequence: UInt64?

  /// An empty summary.
  public init() {}

  /// Counts `entry`.
  mutating func count(_ entry: LogEntry) {
    switch entry {
    case .record: records += 1
    case .unreadable(let unreadable):
      self.unreadable += 1
      if unreadable.reason.isNewerVersion { newerVersion += 1 }
    }
    lastSequence = entry.sequence
  }
}
