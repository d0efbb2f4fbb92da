// Without the `SwiftLog` trait this module has no swift-log handler; this stand-in makes the
// compiler say which trait brings it, instead of "cannot find 'StoicLogHandler' in scope".
#if !SwiftLog
  public import StoicTelemetry

  /// The stand-in of the swift-log `LogHandler` over the telemetry spool, which is built
  /// only with the package trait `SwiftLog`: depend on Stoic with
  /// `.package(path: "path/to/stoic", traits: ["SwiftLog"])`.
  @available(
    *, unavailable,
    message:
      "StoicLogHandler is built only with Stoic's package trait SwiftLog: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftLog\"])"
  )
  public struct StoicLogHandler {
    /// Refused: the handler needs the trait `SwiftLog`.
    @available(
      *, unavailable,
      message:
        "StoicLogHandler is built only with Stoic's package trait SwiftLog: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftLog\"])"
    )
    public init(label: String, spool: TelemetrySpool) {}

    /// Refused: the handler needs the trait `SwiftLog`.
    @available(
      *, unavailable,
      message:
        "StoicLogHandler is built only with Stoic's package trait SwiftLog: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftLog\"])"
    )
    public init(label: String, logs: LogSpool) {}
  }
#endif
