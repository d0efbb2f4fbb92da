public import StoicStore

/// The events of the settings store. Every name starts with `settings.`.
///
/// Each is raised from its definition with `EventSink.emit(_:_:)`; ``catalog`` lists them all.
/// A settings store also passes on the storage core's events (`StoreEvents`) of the
/// file under it, so an app that shows a settings store's events combines both catalogs.
public enum SettingsEvents {
  /// Settings were loaded; says from where and how many issues.
  public static let loaded = EventDefinition(
    "settings.loaded", level: .info,
    summary: "Settings were loaded.",
    fields: ["path", "source", "issues"])

  /// Invalid fields fell back to their defaults.
  public static let repaired = EventDefinition(
    "settings.repaired", level: .warning,
    summary: "Invalid fields fell back to their defaults; the others were kept.",
    fields: ["path", "fields"])

  /// The previous generation was used because the current file was unusable.
  public static let recovered = EventDefinition(
    "settings.recovered", level: .warning,
    summary: "The previous generation was used because the current file was unusable.",
    fields: ["path", "reason"])

  /// Nothing usable was found; the defaults are in effect.
  public static let reset = EventDefinition(
    "settings.reset", level: .warning,
    summary: "Nothing usable was found; the defaults are in effect.",
    fields: ["path", "reason"])

  /// The file was written by a newer format; the store is read-only.
  public static let newerFormat = EventDefinition(
    "settings.newer_format", level: .warning,
    summary: "A newer format was found; the store is read-only and the file untouched.",
    fields: ["path", "version"])

  /// An older format was migrated.
  public static let migrated = EventDefinition(
    "settings.migrated", level: .info,
    summary: "A document of an older format was migrated.",
    fields: ["path", "from", "to"])

  /// An update was written durably.
  public static let saved = EventDefinition(
    "settings.saved", level: .info,
    summary: "An update was written durably and published.",
    fields: ["path"])

  /// An update was refused by validation; nothing changed.
  public static let rejected = EventDefinition(
    "settings.rejected", level: .warning,
    summary: "An update failed validation; nothing changed.",
    fields: ["path", "issues"])

  /// An update could not be written; value and file are unchanged.
  public static let saveFailed = EventDefinition(
    "settings.save_failed", level: .error,
    summary: "An update could not be written; the value and the file are as they were.",
    fields: ["path", "error"])

  /// Every event of this layer.
  public static let catalog = EventCatalog([
    loaded,
    repaired,
    recovered,
    reset,
    newerFormat,
    migrated,
    saved,
    rejected,
    saveFailed,
  ])
}
