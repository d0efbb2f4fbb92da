/// Something a Stoic layer did or found that an app should be able to see: a quarantined file,
/// a cut tail, a parked entry, a dropped record.
///
/// An event is raised from its ``EventDefinition`` (``EventSink/emit(_:_:)``), so its ``name``
/// and ``level`` are always those its layer declared in its ``EventCatalog``.
public struct StoreEvent: Sendable, Hashable, CustomStringConvertible {
  /// How much the event matters.
  public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Routine, for tracing.
    case debug
    /// Normal operation worth recording.
    case info
    /// Something was wrong and was handled (quarantined, repaired, retried).
    case warning
    /// Something failed and needs attention.
    case error

    /// Orders by severity.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `debug`, `info`, `warning` or `error`.
    public var description: String {
      switch self {
      case .debug: "debug"
      case .info: "info"
      case .warning: "warning"
      case .error: "error"
      }
    }
  }

  /// What kind of event this is, as its layer declared it.
  public let definition: EventDefinition
  /// Details as key–value pairs (`path`, `droppedBytes`, …), in the order they were given.
  public var fields: [(String, String)]

  /// The registered name, such as `store.corrupt_quarantined`.
  public var name: String { definition.name }
  /// How much it matters.
  public var level: Level { definition.level }

  /// An event of kind `definition` with `fields`.
  ///
  /// In debug builds, a field whose name the definition does not declare stops the program:
  /// that is a defect in the layer that raised it, never something input controls.
  public init(_ definition: EventDefinition, _ fields: [(String, String)] = []) {
    assert(
      fields.allSatisfy { definition.fields.contains($0.0) },
      "\(definition.name) does not declare \(fields.map(\.0)); it declares \(definition.fields)")
    self.definition = definition
    self.fields = fields
  }

  /// The value of the first field named `key`.
  public subscript(key: String) -> String? {
    fields.first { $0.0 == key }?.1
  }

  /// `level name key=value …`.
  public var description: String {
    ([level.description, name] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
  }

  /// Equal when the definitions and the fields (in order) are.
  public static func == (lhs: StoreEvent, rhs: StoreEvent) -> Bool {
    lhs.definition == rhs.definition
      && lhs.fields.elementsEqual(rhs.fields) { $0.0 == $1.0 && $0.1 == $1.1 }
  }

  /// Hashes the definition and the fields.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(definition)
    for (key, value) in fields {
      hasher.combine(key)
      hasher.combine(value)
    }
  }
}
