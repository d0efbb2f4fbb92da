/// How a ``TelemetrySpool`` is opened: the options of its log spool (and, with the metrics
/// spool, of that one).
public struct TelemetryOptions: Sendable {
  /// The log spool's options.
  public var logs: LogSpoolOptions

  // The metrics spool's options join here: `public var metrics: MetricsOptions`.

  /// Creates options; every parameter has the default described on its property.
  public init(logs: LogSpoolOptions = LogSpoolOptions()) {
    self.logs = logs
  }
}
