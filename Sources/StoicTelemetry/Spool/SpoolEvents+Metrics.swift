public import StoicStore

extension SpoolEvents {
  /// Series beyond the cardinality limit were folded into their metric's overflow series.
  public static let metricsSeriesFolded = EventDefinition(
    "spool.metrics_series_folded", level: .warning,
    summary:
      "Series of `metric` beyond the cardinality limit were folded into its overflow series "
      + "(`otel.metric.overflow=true`): `folded` since the last report, `total` since the "
      + "spool was made. Reported at the first fold of a metric after open, then at most once "
      + "per flush.",
    fields: ["metric", "limit", "folded", "total"])

  /// The metrics spool rebuilt its live files from the journal's last synced samples.
  public static let metricsLiveFileRebuilt = EventDefinition(
    "spool.metrics_live_rebuilt", level: .info,
    summary:
      "The live files were rebuilt from the journal's last synced samples (`series` of them), "
      + "because of `reason`: after a restart of the machine, what changed after the last "
      + "synced flush is lost.",
    fields: ["reason", "series"])

  /// A live file failed its checks in the boot that wrote it and was quarantined.
  public static let metricsLiveFileQuarantined = EventDefinition(
    "spool.metrics_live_quarantined", level: .error,
    summary:
      "A live file that failed its checks was renamed aside (never deleted); the spool "
      + "continues from the journal's last synced samples.",
    fields: ["path", "quarantinedAs", "reason"])

  /// A series could not be given room in the live file and lives in the process's memory.
  public static let metricsSeriesNotPersisted = EventDefinition(
    "spool.metrics_series_not_persisted", level: .warning,
    summary:
      "Series of `metric` live in the process's memory, not the live file (`reason`): their "
      + "changes survive from the next flush on, not a crash of the process before it.",
    fields: ["metric", "reason"])

  /// A flush (sampling and syncing the journal) failed; the values stay and the next one
  /// retries.
  public static let metricsFlushFailed = EventDefinition(
    "spool.metrics_flush_failed", level: .error,
    summary:
      "A flush of the metrics spool failed (`reason`); the running values are kept and the "
      + "next flush samples them again.",
    fields: ["reason"])

  /// A read of the metrics journal met records it could not decode; they are kept.
  public static let metricsSamplesUnreadable = EventDefinition(
    "spool.metrics_samples_unreadable", level: .warning,
    summary:
      "A read of the metrics journal met `newer` records of a later format version and "
      + "`damaged` records; both are kept in the journal and counted, never decoded.",
    fields: ["newer", "damaged"])

  /// The metrics spool's events, in ``catalog`` order.
  static let metricsEntries: [EventDefinition] = [
    metricsSeriesFolded, metricsLiveFileRebuilt, metricsLiveFileQuarantined,
    metricsSeriesNotPersisted, metricsFlushFailed, metricsSamplesUnreadable,
  ]
}
