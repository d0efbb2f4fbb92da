/// The events a layer, or a whole stack of layers, can raise: every ``EventDefinition`` with its
/// level, meaning and fields.
///
/// Each layer declares its own catalog (``StoreEvents/catalog`` for the storage core; the
/// settings store, the telemetry spool and the forwarder each have theirs), and whoever exposes
/// the events to an app combines the catalogs of the layers it uses
/// (``init(combining:)``). A layer raises events only from its declared definitions, and a test
/// fails on a definition that is not in its layer's catalog, so a catalog is the complete list
/// an app can rely on.
public struct EventCatalog: Sendable, Hashable {
  /// Every definition, in the order the layers listed them, each name once.
  public let entries: [EventDefinition]

  /// A catalog of `entries`. A name listed twice is kept once (its first definition).
  public init(_ entries: [EventDefinition]) {
    var seen: Set<String> = []
    self.entries = entries.filter { seen.insert($0.name).inserted }
  }

  /// The union of `catalogs`, in order; a name in several is kept once (its first definition).
  public init(combining catalogs: [EventCatalog]) {
    self.init(catalogs.flatMap(\.entries))
  }

  /// The definition named `name`, if it is in the catalog.
  public func entry(named name: String) -> EventDefinition? {
    entries.first { $0.name == name }
  }

  /// Whether `name` is in the catalog.
  public func contains(_ name: String) -> Bool {
    entry(named: name) != nil
  }

  /// Whether `definition` is in the catalog, with the same level, summary and fields.
  public func contains(_ definition: EventDefinition) -> Bool {
    entry(named: definition.name) == definition
  }
}
