/// Something the store did or found that an app should be able to see: a quarantined file, a
/// cut tail, a parked entry.
///
/// Every ``name`` is registered in ``EventCatalog``; a test fails on one that is not.
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

  /// The registered name, such as `store.corrupt_quarantined`.
  public var name: String
  /// How much it matters.
  public var level: Level
  /// Details as key–value pairs (`path`, `droppedBytes`, …), in the order they were given.
  public var fields: [(String, String)]

  /// Creates an event.
  public init(_ name: String, level: Level, _ fields: [(String, String)] = []) {
    self.name = name
    self.level = level
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

  /// Equal when name, level and fields (in order) are.
  public static func == (lhs: StoreEvent, rhs: StoreEvent) -> Bool {
    lhs.name == rhs.name && lhs.level == rhs.level
      && lhs.fields.elementsEqual(rhs.fields) { $0.0 == $1.0 && $0.1 == $1.1 }
  }

  /// Hashes name, level and fields.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(level)
    for (key, value) in fields {
      hasher.combine(key)
      hasher.combine(value)
    }
  }
}
