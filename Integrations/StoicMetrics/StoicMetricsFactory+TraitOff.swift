// Without the `SwiftMetrics` trait this module has no swift-metrics factory; this stand-in
// makes the compiler say which trait brings it, instead of "cannot find 'StoicMetricsFactory'
// in scope".
#if !SwiftMetrics
  public import StoicTelemetry

  /// The stand-in of the swift-metrics `MetricsFactory` over the telemetry spool, which is built
  /// only with the package trait `SwiftMetrics`: depend on Stoic with
  /// `.package(path: "path/to/stoic", traits: ["SwiftMetrics"])`.
  @available(
    *, unavailable,
    message:
      "StoicMetricsFactory is built only with Stoic's package trait SwiftMetrics: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftMetrics\"])"
  )
  public struct StoicMetricsFactory {
    /// Refused: the factory needs the trait `SwiftMetrics`.
    @available(
      *, unavailable,
      message:
        "StoicMetricsFactory is built only with Stoic's package trait SwiftMetrics: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftMetrics\"])"
    )
    public init(spool: TelemetrySpool) {}

    /// Refused: the factory needs the trait `SwiftMetrics`.
    @available(
      *, unavailable,
      message:
        "StoicMetricsFactory is built only with Stoic's package trait SwiftMetrics: depend on it with .package(path: \"path/to/stoic\", traits: [\"SwiftMetrics\"])"
    )
    public init(metrics: MetricsSpool) {}
  }
#endif
