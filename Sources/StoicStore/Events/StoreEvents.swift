/// The events of the storage core: the file system door, ``AtomicFile``, ``Journal`` and
/// ``Outbox``. Every name starts with `store.`.
///
/// Each is raised from its definition with ``EventSink/emit(_:_:)``; ``catalog`` lists them all.
public enum StoreEvents {
  /// A corrupt file was renamed aside to `<path>.corrupt-N`.
  public static let corruptQuarantined = EventDefinition(
    "store.corrupt_quarantined", level: .warning,
    summary:
      "A corrupt file was renamed aside, never deleted; `pruned` lists older quarantined copies "
      + "removed to keep the newest `quarantineLimit`.",
    fields: ["path", "quarantinedAs", "reason", "pruned"])

  /// The current file was unusable and the previous generation was read instead.
  public static let recoveredPrevious = EventDefinition(
    "store.recovered_previous", level: .warning,
    summary: "The previous generation was read because the current file was unusable.",
    fields: ["path", "reason"])

  /// A stale temporary file from an interrupted write was removed.
  public static let tempRemoved = EventDefinition(
    "store.temp_removed", level: .info,
    summary: "A stale temporary file from an interrupted write was removed.",
    fields: ["path"])

  /// `F_FULLFSYNC` is not supported by this file system; `fsync` was used.
  public static let fullSyncUnavailable = EventDefinition(
    "store.fullsync_unavailable", level: .warning,
    summary: "F_FULLFSYNC is unsupported here; fsync was used instead.",
    fields: ["path"])

  /// A torn tail was cut at open: what a crash left of appends it interrupted.
  ///
  /// `droppedBytes` counts the bytes of the interrupted appends (up to the last byte that is
  /// not zero), `zeroBytes` the preallocated zeros after them, which never held data. No
  /// record whose append returned is lost: everything cut lies after the last durable point.
  /// Raised at `info`: this is how recovery from a crash in the middle of an append looks.
  public static let journalTruncated = EventDefinition(
    "store.journal_truncated", level: .info,
    summary:
      "A torn tail was cut at open: droppedBytes of appends a crash interrupted (never "
      + "acknowledged, no acknowledged record lost) and zeroBytes of preallocated zeros.",
    fields: ["path", "validBytes", "droppedBytes", "zeroBytes"])

  /// Records were compacted into a compressed snapshot or sealed segment.
  public static let journalCompacted = EventDefinition(
    "store.journal_compacted", level: .info,
    summary: "Records were compacted into a zstd-compressed snapshot.",
    fields: ["path", "records", "inputBytes", "outputBytes"])

  /// Damage was found inside data that had been durable.
  public static let journalCorruptionDetected = EventDefinition(
    "store.journal_corruption_detected", level: .error,
    summary: "Damage was found inside data that had been durable; open refused unless salvaging.",
    fields: ["path", "offset", "length"])

  /// The journal could not map its active segment and appends with positional writes instead.
  public static let journalMappingUnavailable = EventDefinition(
    "store.journal_mapping_unavailable", level: .warning,
    summary: "The active segment could not be mapped; appends use positional writes from now on.",
    fields: ["path", "error"])

  /// A damaged journal was salvaged: bytes quarantined, later records kept.
  public static let journalSalvaged = EventDefinition(
    "store.journal_salvaged", level: .error,
    summary: "Damaged bytes were quarantined and every valid later record kept.",
    fields: ["path", "quarantinedAs", "damagedBytes", "keptRecords"])

  /// A `.log` segment is far larger than this journal's segments grow.
  ///
  /// A segment grows to about ``JournalOptions/segmentSize`` (the last record may pass it, and
  /// the active segment's preallocated zeros stop at it) before the journal rolls. One of more
  /// than twice that size plus the largest record was not made by this journal's appends as
  /// they are configured: a file copied in or named like a segment, or a journal written with a
  /// larger `segmentSize`. It is read as usual (a run of zeros costs a read at memory speed);
  /// nothing is changed or lost because of its size.
  public static let journalSegmentOversized = EventDefinition(
    "store.journal_segment_oversized", level: .warning,
    summary:
      "A log segment of `bytes` is far larger than this journal's segments grow "
      + "(`segmentSize`); read as usual, nothing lost because of its size.",
    fields: ["path", "bytes", "segmentSize"])

  /// An entry or batch was delivered and acknowledged.
  public static let outboxDelivered = EventDefinition(
    "store.outbox_delivered", level: .info,
    summary:
      "An entry or batch was delivered and its acknowledgement made durable; `rejected` counts "
      + "records the receiver refused in a partial success (not retried).",
    fields: ["key", "entries", "rejected"])

  /// A delivery attempt failed (transient or permanent).
  public static let outboxDeliveryFailed = EventDefinition(
    "store.outbox_delivery_failed", level: .warning,
    summary: "A delivery attempt failed.",
    fields: ["key", "failure", "reason"],
    hint: "a delivery failed; what it carried is kept and tried again")

  /// An entry was parked after a permanent failure; it needs attention.
  public static let outboxParked = EventDefinition(
    "store.outbox_parked", level: .error,
    summary: "An entry failed permanently and was parked; it stays on disk until the app acts.",
    fields: ["key", "reason"])

  /// Maintenance (compaction, removal of owned files) failed; nothing was lost.
  public static let outboxMaintenanceFailed = EventDefinition(
    "store.outbox_maintenance_failed", level: .warning,
    summary: "Compaction or the removal of owned files failed; nothing was lost.",
    fields: ["operation", "error"])

  /// Entries this build cannot decode are kept and counted.
  public static let outboxUnreadable = EventDefinition(
    "store.outbox_unreadable", level: .warning,
    summary: "Entries this build cannot decode are kept byte for byte and counted.",
    fields: ["count"])

  /// Every event of this layer.
  public static let catalog = EventCatalog([
    corruptQuarantined,
    recoveredPrevious,
    tempRemoved,
    fullSyncUnavailable,
    journalTruncated,
    journalCompacted,
    journalCorruptionDetected,
    journalMappingUnavailable,
    journalSalvaged,
    journalSegmentOversized,
    outboxDelivered,
    outboxDeliveryFailed,
    outboxParked,
    outboxMaintenanceFailed,
    outboxUnreadable,
  ])
}
