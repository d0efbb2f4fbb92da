/// What ``Journal/open(directory:fileSystem:options:events:)`` found and repaired.
public struct JournalRecovery: Sendable, Hashable {
  /// Bytes of torn tail cut from the active segment.
  public var truncatedBytes: UInt64 = 0
  /// Damaged durable bytes copied aside by a salvage.
  public var quarantinedBytes: UInt64 = 0
  /// The quarantine files a salvage wrote (paths).
  public var quarantinedFiles: [String] = []
  /// Valid records kept after damaged bytes by a salvage.
  public var salvagedRecords: Int = 0
  /// Segments removed because a checkpoint already covered them (an interrupted drop).
  public var removedCoveredSegments: Int = 0
  /// Records found on disk above the low-water mark.
  public var records: Int = 0
  /// The most bytes the recovery scan held in memory at once; bounded by the read window (or
  /// one frame of the largest record), whatever the journal's size.
  public var peakBufferBytes: Int = 0

  /// An empty report.
  public init() {}
}
