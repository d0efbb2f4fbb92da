public import StoicStore

/// The events of the telemetry spool: its log spool, its metrics spool, its span spool and
/// the spool around them. Every name starts with `spool.`.
///
/// Each is raised from its definition with `EventSink.emit(_:_:)`; ``catalog`` lists them all.
/// The spool also passes on the storage core's events that its layers raise
/// (``storeCatalog``); ``TelemetrySpool/eventCatalog-type.property`` combines both.
public enum SpoolEvents {
  /// Every event of this layer: the spool's and the log spool's, the metrics spool's, then the
  /// span spool's.
  public static let catalog = EventCatalog(logEntries + metricsEntries + spanEntries)

  /// The storage core's events (`StoreEvents`) a spool's layers raise and the spool passes on:
  /// those of the file system, `AtomicFile` (the identity file, the drop counters, the segment
  /// summaries) and the journals. Not the outbox's: a spool keeps none.
  public static let storeCatalog = EventCatalog([
    StoreEvents.corruptQuarantined,
    StoreEvents.recoveredPrevious,
    StoreEvents.tempRemoved,
    StoreEvents.fullSyncUnavailable,
    StoreEvents.journalTruncated,
    StoreEvents.journalCompacted,
    StoreEvents.journalCorruptionDetected,
    StoreEvents.journalMappingUnavailable,
    StoreEvents.journalSalvaged,
    StoreEvents.journalSegmentOversized,
  ])
}

extension SpoolEvents {
  /// Records were dropped and counted: by the quota or the age limit, after a disk error, or
  /// because they could not be encoded.
  public static let recordsDropped = EventDefinition(
    "spool.records_dropped", level: .warning,
    summary:
      "Records were dropped and counted (`reason`: quota, age, disk_error, encoding, "
      + "after_close); the "
      + "counts survive restarts.",
    fields: ["reason", "count", "total"],
    hint: "records were dropped and counted (stoic inspect shows the counts)")

  /// A record was logged after the spool was closed: dropped, counted (`after_close`).
  public static let recordsAfterClose = EventDefinition(
    "spool.records_after_close", level: .warning,
    summary:
      "A record was logged after the spool was closed: it and every later one are dropped and "
      + "counted under `after_close` (the count survives restarts). Raised once per spool. In "
      + "a service it means code still logging after Stoic's shutdown: in a `ServiceGroup`, "
      + "list Stoic's service first, since a group shuts its services down last to first.",
    fields: ["path"],
    hint:
      "records logged after Stoic's shutdown are dropped and counted (after_close): list "
      + "Stoic's service first in the ServiceGroup, so that it shuts down last")

  /// Writing to the log journal failed: records are dropped (and counted, reason
  /// `disk_error`) until it recovers.
  public static let writeFailed = EventDefinition(
    "spool.write_failed", level: .error,
    summary:
      "Writing to the log journal failed (a full disk, an I/O error, a journal poisoned by a "
      + "failed sync); records are dropped and counted until it recovers by itself.",
    fields: ["path", "error"],
    hint: "writing to the spool failed; records are dropped and counted until it recovers")

  /// The log journal takes records again after a disk error.
  public static let writeResumed = EventDefinition(
    "spool.write_resumed", level: .info,
    summary:
      "The log journal takes records again after a disk error (`reopened`: whether it was "
      + "reopened); `dropped` records were dropped meanwhile.",
    fields: ["path", "dropped", "reopened"])

  /// The drop counters file could not be read: it was set aside and counting started again.
  public static let dropCountsReset = EventDefinition(
    "spool.drop_counts_reset", level: .warning,
    summary:
      "The drop counters file was damaged or written by a newer build; it was renamed aside, "
      + "never deleted, and counting started again from zero.",
    fields: ["path", "quarantinedAs", "reason"])

  /// The spool's identity file could not be read: a new identity was made.
  public static let identityReplaced = EventDefinition(
    "spool.identity_replaced", level: .warning,
    summary:
      "The spool's identity file was unreadable (it was quarantined); a new identity was made, "
      + "so records forwarded from now on carry new idempotency keys.",
    fields: ["path", "identity", "reason"])

  /// The spool's and the log spool's events, in ``catalog`` order.
  static let logEntries: [EventDefinition] = [
    recordsDropped,
    recordsAfterClose,
    writeFailed,
    writeResumed,
    dropCountsReset,
    identityReplaced,
  ]
}

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

extension SpoolEvents {
  /// Spans the last process left open were ended as unfinished.
  public static let unfinishedSpansEnded = EventDefinition(
    "spool.unfinished_spans_ended", level: .warning,
    summary:
      "The spool was opened with `count` spans started and never ended: the process that "
      + "started them ended first (a crash, a kill). Each was ended as unfinished, at the time "
      + "of the spool's last record, with status error and the attribute "
      + "`stoic.span.unfinished`, and will be forwarded once.",
    fields: ["path", "count"],
    hint: "spans the last process left open were ended as unfinished")

  /// The span spool's events, in ``catalog`` order.
  static let spanEntries: [EventDefinition] = [unfinishedSpansEnded]
}
