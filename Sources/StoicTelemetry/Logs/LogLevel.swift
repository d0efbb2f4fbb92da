/// The severity of a log record: swift-log's seven levels, in its order.
public enum LogLevel: UInt8, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
  /// Finest-grained tracing.
  case trace = 0
  /// Information for debugging.
  case debug = 1
  /// Normal operation.
  case info = 2
  /// Normal but significant.
  case notice = 3
  /// Something unexpected that was handled.
  case warning = 4
  /// An operation failed.
  case error = 5
  /// The process or a part of it cannot go on.
  case critical = 6

  /// Orders by severity: `trace` is the lowest, `critical` the highest.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// swift-log's lower-case name: `trace`, `debug`, `info`, `notice`, `warning`, `error`,
  /// `critical`.
  public var description: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    case .critical: "critical"
    }
  }

  /// The level named `name` (swift-log's lower-case names, as ``description`` gives them).
  public init?(name: some StringProtocol) {
    guard let level = LogLevel.allCases.first(where: { $0.description == name }) else {
      return nil
    }
    self = level
  }
}
