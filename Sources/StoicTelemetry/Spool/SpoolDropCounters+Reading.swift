public import StoicStore

extension SpoolDropCounters {
  /// What a drop counters file holds, read without opening it (``open(path:fileSystem:events:)``
  /// would set a damaged file aside): what `stoic inspect` shows.
  public enum Stored: Sendable, Hashable {
    /// The counts; `pendingRecords` is the count of a removal recorded as under way (the next
    /// open settles it), if any.
    case counts(SpoolDropCounts, pendingRecords: UInt64?)
    /// There is no file.
    case missing
    /// A newer build wrote it (the next open sets it aside and counts from zero).
    case newerVersion(UInt8)
    /// No copy in it checks (the next open sets it aside and counts from zero).
    case damaged(String)
  }

  /// Reads the drop counters file at `path` without changing it.
  ///
  /// - Throws: The file system's errors (a permission, an I/O error).
  public static func readStored(path: String, fileSystem: any FileSystem) throws(StoreError)
    -> Stored
  {
    guard let bytes = try fileSystem.readWholeFile(path) else { return .missing }
    switch SpoolDropCountersFormat.decode(bytes).contents {
    case .valid(let record): return .counts(record.counts, pendingRecords: record.pending?.count)
    case .newerVersion(let version): return .newerVersion(version)
    case .damaged(let why): return .damaged(why)
    }
  }
}
