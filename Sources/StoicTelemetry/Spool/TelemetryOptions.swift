/// How a ``TelemetrySpool`` is opened: the options of its log spool and of its metrics spool.
public struct TelemetryOptions: Sendable {
  /// The log spool's options.
  public var logs: LogSpoolOptions
  /// The metrics spool's options.
  public var metrics: MetricsOptions

  /// Creates options; every parameter has the default described on its property.
  public init(logs: LogSpoolOptions = LogSpoolOptions(), metrics: MetricsOptions = MetricsOptions())
  {
    self.logs = logs
    self.metrics = metrics
  }
}
