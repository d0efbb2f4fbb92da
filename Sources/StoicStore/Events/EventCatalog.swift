/// The registry of every event name Stoic can emit, with its level and meaning.
///
/// Components emit events only by the names declared here (as the static constants below), and
/// a test scans the sources for `"store.`, `"settings.` and `"spool.` literals and fails on any
/// name that is not registered, so the catalog is the complete list an app can rely on.
public enum EventCatalog {
  /// One registered event.
  public struct Entry: Sendable, Hashable {
    /// The event's name.
    public let name: String
    /// The level it is emitted at.
    public let level: StoreEvent.Level
    /// What it means.
    public let summary: String
    /// The field names it carries.
    public let fields: [String]
  }

  // MARK: AtomicFile and the file system

  /// A corrupt file was renamed aside to `<path>.corrupt-N`.
  public static let corruptQuarantined = "store.corrupt_quarantined"
  /// The current file was unusable and the previous generation was read instead.
  public static let recoveredPrevious = "store.recovered_previous"
  /// A stale temporary file from an interrupted write was removed.
  public static let tempRemoved = "store.temp_removed"
  /// `F_FULLFSYNC` is not supported by this file system; `fsync` was used.
  public static let fullSyncUnavailable = "store.fullsync_unavailable"

  // MARK: Journal

  /// A torn tail was cut at open.
  public static let journalTruncated = "store.journal_truncated"
  /// Records were compacted into a compressed snapshot or sealed segment.
  public static let journalCompacted = "store.journal_compacted"
  /// Damage was found inside data that had been durable.
  public static let journalCorruptionDetected = "store.journal_corruption_detected"
  /// A damaged journal was salvaged: bytes quarantined, later records kept.
  public static let journalSalvaged = "store.journal_salvaged"
  /// The journal could not map its active segment and appends with positional writes instead.
  public static let journalMappingUnavailable = "store.journal_mapping_unavailable"

  // MARK: Outbox

  /// An entry or batch was delivered and acknowledged.
  public static let outboxDelivered = "store.outbox_delivered"
  /// A delivery attempt failed (transient or permanent).
  public static let outboxDeliveryFailed = "store.outbox_delivery_failed"
  /// An entry was parked after a permanent failure; it needs attention.
  public static let outboxParked = "store.outbox_parked"
  /// Maintenance (compaction, removal of owned files) failed; nothing was lost.
  public static let outboxMaintenanceFailed = "store.outbox_maintenance_failed"
  /// Entries this build cannot decode are kept and counted.
  public static let outboxUnreadable = "store.outbox_unreadable"

  // MARK: Settings

  /// Settings were loaded; says from where and how many issues.
  public static let settingsLoaded = "settings.loaded"
  /// Invalid fields fell back to their defaults.
  public static let settingsRepaired = "settings.repaired"
  /// The previous generation was used because the current file was unusable.
  public static let settingsRecovered = "settings.recovered"
  /// Nothing usable was found; the defaults are in effect.
  public static let settingsReset = "settings.reset"
  /// The file was written by a newer format; the store is read-only.
  public static let settingsNewerFormat = "settings.newer_format"
  /// An older format was migrated.
  public static let settingsMigrated = "settings.migrated"
  /// An update was written durably.
  public static let settingsSaved = "settings.saved"
  /// An update was refused by validation; nothing changed.
  public static let settingsRejected = "settings.rejected"
  /// An update could not be written; value and file are unchanged.
  public static let settingsSaveFailed = "settings.save_failed"

  /// Every registered event.
  public static let all: [Entry] = [
    Entry(
      name: corruptQuarantined, level: .warning,
      summary: "A corrupt file was renamed aside, never deleted.",
      fields: ["path", "quarantinedAs", "reason"]),
    Entry(
      name: recoveredPrevious, level: .warning,
      summary: "The previous generation was read because the current file was unusable.",
      fields: ["path"]),
    Entry(
      name: tempRemoved, level: .info,
      summary: "A stale temporary file from an interrupted write was removed.",
      fields: ["path"]),
    Entry(
      name: fullSyncUnavailable, level: .warning,
      summary: "F_FULLFSYNC is unsupported here; fsync was used instead.",
      fields: ["path"]),
    Entry(
      name: journalTruncated, level: .warning,
      summary: "A torn tail (after the last durable point) was cut at open.",
      fields: ["path", "validBytes", "droppedBytes"]),
    Entry(
      name: journalCompacted, level: .info,
      summary: "Records were compacted into a zstd-compressed snapshot.",
      fields: ["path", "records", "inputBytes", "outputBytes"]),
    Entry(
      name: journalCorruptionDetected, level: .error,
      summary: "Damage was found inside data that had been durable; open refused unless salvaging.",
      fields: ["path", "offset", "length"]),
    Entry(
      name: journalMappingUnavailable, level: .warning,
      summary:
        "The active segment could not be mapped; appends use positional writes from now on.",
      fields: ["path", "error"]),
    Entry(
      name: journalSalvaged, level: .error,
      summary: "Damaged bytes were quarantined and every valid later record kept.",
      fields: ["path", "quarantinedAs", "damagedBytes", "keptRecords"]),
    Entry(
      name: outboxDelivered, level: .info,
      summary:
        "An entry or batch was delivered and its acknowledgement made durable; `rejected` counts "
        + "records the receiver refused in a partial success (not retried).",
      fields: ["key", "entries", "rejected"]),
    Entry(
      name: outboxDeliveryFailed, level: .warning,
      summary: "A delivery attempt failed.",
      fields: ["key", "failure", "reason"]),
    Entry(
      name: outboxParked, level: .error,
      summary: "An entry failed permanently and was parked; it stays on disk until the app acts.",
      fields: ["key", "reason"]),
    Entry(
      name: outboxMaintenanceFailed, level: .warning,
      summary: "Compaction or the removal of owned files failed; nothing was lost.",
      fields: ["operation", "error"]),
    Entry(
      name: outboxUnreadable, level: .warning,
      summary: "Entries this build cannot decode are kept byte for byte and counted.",
      fields: ["count"]),
    Entry(
      name: settingsLoaded, level: .info,
      summary: "Settings were loaded.",
      fields: ["path", "source", "issues"]),
    Entry(
      name: settingsRepaired, level: .warning,
      summary: "Invalid fields fell back to their defaults; the others were kept.",
      fields: ["path", "fields"]),
    Entry(
      name: settingsRecovered, level: .warning,
      summary: "The previous generation was used because the current file was unusable.",
      fields: ["path", "reason"]),
    Entry(
      name: settingsReset, level: .warning,
      summary: "Nothing usable was found; the defaults are in effect.",
      fields: ["path", "reason"]),
    Entry(
      name: settingsNewerFormat, level: .warning,
      summary: "A newer format was found; the store is read-only and the file untouched.",
      fields: ["path", "version"]),
    Entry(
      name: settingsMigrated, level: .info,
      summary: "A document of an older format was migrated.",
      fields: ["path", "from", "to"]),
    Entry(
      name: settingsSaved, level: .info,
      summary: "An update was written durably and published.",
      fields: ["path"]),
    Entry(
      name: settingsRejected, level: .warning,
      summary: "An update failed validation; nothing changed.",
      fields: ["path", "issues"]),
    Entry(
      name: settingsSaveFailed, level: .error,
      summary: "An update could not be written; the value and the file are as they were.",
      fields: ["path", "error"]),
  ]

  /// Looks up an event by name.
  public static func entry(named name: String) -> Entry? {
    all.first { $0.name == name }
  }

  /// Whether `name` is registered.
  public static func contains(_ name: String) -> Bool {
    entry(named: name) != nil
  }
}
