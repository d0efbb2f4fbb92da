// The swift-log integration (a `LogHandler` over the log spool) is built only with the
// `SwiftLog` trait: `swift build --traits SwiftLog`. The handler itself arrives with the
// telemetry layer; until then this target only proves that the trait resolves and links
// swift-log while a default build never fetches it.
#if SwiftLog
  public import Logging

  /// The swift-log module this integration is built against, re-exported for its users.
  public typealias StoicLoggingLogger = Logging.Logger
#endif
