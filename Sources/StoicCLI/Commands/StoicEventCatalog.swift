import StoicForwarding
import StoicSettings
public import StoicStore
import StoicTelemetry

/// Every event of every layer the tool knows, as `stoic events` lists them. A layer joins by
/// adding its catalog to ``layers``.
public enum StoicEventCatalog {
  /// Each layer's catalog, bottom up.
  public static let layers: [EventCatalog] = [
    StoreEvents.catalog,
    SettingsEvents.catalog,
    SpoolEvents.catalog,
    ForwardingEvents.catalog,
  ]

  /// The union of ``layers``.
  public static let all = EventCatalog(combining: layers)
}
