/// What one run of a ``LogQuery`` went over: how much it read, how much it skipped.
public struct LogQueryStatistics: Sendable, Hashable {
  /// Segments holding records in the range read.
  public var segments = 0
  /// Of those, segments skipped whole because their summary rules every record out.
  public var segmentsSkipped = 0
  /// Valid summaries found (a skipped segment's included).
  public var summariesUsed = 0
  /// Summary files found that did not check, or covered another range: not used.
  public var summariesInvalid = 0
  /// Summaries written (built while reading a sealed segment whole).
  public var summariesWritten = 0
  /// Records read from the segments not skipped.
  public var recordsRead = 0
  /// Records decoded (those that passed the level and time filters).
  public var recordsDecoded = 0
  /// Records that passed the level and time filters but could not be decoded (a newer
  /// build's, or damaged): never returned.
  public var unreadable = 0
  /// Records returned.
  public var matched = 0
  /// Segments a read refused as damaged (the query went on with the next segment).
  public var damagedSegments = 0
  /// What the first damaged segment's read said, if any.
  public var firstDamage: String?

  /// Nothing read yet.
  public init() {}

  /// The fraction of segments skipped (0 when there were none).
  public var skippedFraction: Double {
    segments == 0 ? 0 : Double(segmentsSkipped) / Double(segments)
  }
}
