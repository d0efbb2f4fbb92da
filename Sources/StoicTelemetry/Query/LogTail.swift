public import StoicStore

/// The newest records of a log spool's journal, and those that came after: what `stoic tail`
/// shows.
public enum LogTail {
  /// The newest `count` entries of `journal` at or below `last` (all of them when fewer),
  /// oldest first: read from `last - count + 1` on, so the cost is the records returned and
  /// the segment they start in, not the journal's size. Unreadable records are returned as
  /// such (``LogEntry/unreadable(_:)``).
  ///
  /// - Throws: The journal's read errors.
  public static func newest(_ count: Int, in journal: Journal, through last: UInt64? = nil)
    throws(StoreError) -> [LogEntry]
  {
    let last = last ?? journal.lastSequence
    guard count > 0, last > 0 else { return [] }
    let first = last >= UInt64(count) ? last - UInt64(count) + 1 : 1
    return try entries(in: journal, from: first, through: last)
  }

  /// Every entry of `journal` from `first` through `last`, oldest first, collected in memory
  /// (a tail's batch).
  ///
  /// - Throws: The journal's read errors.
  public static func entries(in journal: Journal, from first: UInt64, through last: UInt64)
    throws(StoreError) -> [LogEntry]
  {
    var entries: [LogEntry] = []
    try forEachEntry(in: journal, from: first, through: last) { entries.append($0) }
    return entries
  }

  /// Calls `body` with every entry of `journal` from `first` through `last`, oldest first, in
  /// bounded memory (what `tail -f` prints as it reads).
  ///
  /// - Throws: The journal's read errors.
  public static func forEachEntry(
    in journal: Journal, from first: UInt64, through last: UInt64, _ body: (LogEntry) -> Void
  ) throws(StoreError) {
    guard first <= last else { return }
    try LogQuery.read(journal, from: first, through: last) { sequence, bytes in
      body(LogEntry(sequence: sequence, bytes: bytes))
      return true
    }
  }
}
