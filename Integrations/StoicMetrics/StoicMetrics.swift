// The swift-metrics integration (a `MetricsFactory` over the metrics spool) is built only with
// the `SwiftMetrics` trait: `swift build --traits SwiftMetrics`. The factory itself arrives with
// the telemetry layer; until then this target only proves that the trait resolves and links
// swift-metrics while a default build never fetches it.
#if SwiftMetrics
  public import CoreMetrics

  /// The swift-metrics counter type this integration is built against, re-exported for its users.
  public typealias StoicMetricsCounter = CoreMetrics.Counter
#endif
