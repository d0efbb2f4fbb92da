public import StoicStore

extension SpoolEvents {
  /// Records were dropped and counted: by the quota or the age limit, after a disk error, or
  /// because they could not be encoded.
  public static let recordsDropped = EventDefinition(
    "spool.records_dropped", level: .warning,
    summary:
      "Records were dropped and counted (`reason`: quota, age, disk_error, encoding); the "
      + "counts survive restarts.",
    fields: ["reason", "count", "total"])

  /// Writing to the log journal failed: records are dropped (and counted, reason
  /// `disk_error`) until it recovers.
  public static let writeFailed = EventDefinition(
    "spool.write_failed", level: .error,
    summary:
      "Writing to the log journal failed (a full disk, an I/O error, a journal poisoned by a "
      + "failed sync); records are dropped and counted until it recovers by itself.",
    fields: ["path", "error"])

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
    writeFailed,
    writeResumed,
    dropCountsReset,
    identityReplaced,
  ]
}
