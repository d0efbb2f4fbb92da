/// What ``MetricsSpool/open(directory:fileSystem:options:events:)`` found.
public struct MetricsRecovery: Sendable, Hashable {
  /// Why the live files were rebuilt from the journal's last synced samples (a restart of the
  /// machine, a first open, damage), or nil when those of this boot were adopted as they were.
  public var rebuiltReason: String?
  /// Why the live file could not be used at all (series then live in memory), or nil.
  public var liveFileError: String?
  /// How many series the spool continued.
  public var series = 0

  /// An empty report.
  public init() {}
}
