/// One signal's `Resource…` message (`ResourceLogs`, `ResourceMetrics`): a resource, the
/// scopes under it and a schema URL. Every OTLP signal nests its items the same way, with the
/// same field numbers (request 1; resource 1, scopes 2, schema URL 3; scope 1, items 2, schema
/// URL 3) and only the JSON keys its own, so the nesting is written and read once per encoding
/// (``OTLPCommonProtobuf``, ``OTLPCommonJSON``), over the signal's item writer and reader.
protocol OTLPResourceGroup: Sendable {
  /// The signal's `Scope…` message.
  associatedtype ScopeGroup: OTLPScopeGroup
  /// An empty group.
  init()
  /// The resource, when there is one.
  var resource: OTLP.Resource? { get set }
  /// The scopes under it (`scopeLogs`).
  var scopeGroups: [ScopeGroup] { get set }
  /// The schema URL (empty for none).
  var schemaUrl: String { get set }
  /// The request's JSON key for its groups (`resourceLogs`).
  static var requestKey: StaticString { get }
  /// The group's JSON key for its scopes (`scopeLogs`).
  static var scopesKey: StaticString { get }
}

/// One signal's `Scope…` message (`ScopeLogs`, `ScopeMetrics`): an instrumentation scope, its
/// items and a schema URL (see ``OTLPResourceGroup``).
protocol OTLPScopeGroup: Sendable {
  /// The signal's item (`LogRecord`, `Metric`).
  associatedtype Item
  /// An empty group.
  init()
  /// The instrumentation scope, when there is one.
  var scope: OTLP.InstrumentationScope? { get set }
  /// The items (`logRecords`).
  var items: [Item] { get set }
  /// The schema URL (empty for none).
  var schemaUrl: String { get set }
  /// The group's JSON key for its items (`logRecords`).
  static var itemsKey: StaticString { get }
  /// Writes an item's fields in protobuf (the nesting frames them).
  static func writeItem(_ item: Item, to writer: inout ProtobufWriter)
  /// Reads an item from its protobuf message.
  static func readItem(_ reader: inout ProtobufReader) throws(ForwardingError) -> Item
  /// Writes an item's JSON object.
  static func writeItem(_ item: Item, to writer: inout JSONWriter)
  /// Reads an item's JSON object.
  static func readItem(_ reader: inout JSONReader) throws(ForwardingError) -> Item
}
