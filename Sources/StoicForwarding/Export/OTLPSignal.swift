/// What an OTLP/HTTP request carries, which decides its path and its response's type.
public enum OTLPSignal: String, Sendable, Hashable, CaseIterable {
  /// Log records: `ExportLogsServiceRequest` to `/v1/logs`.
  case logs
  /// Metrics: `ExportMetricsServiceRequest` to `/v1/metrics`.
  case metrics
  /// Spans: `ExportTraceServiceRequest` to `/v1/traces`.
  case traces

  /// OTLP's default path for the signal.
  public var defaultPath: String { forwarded.defaultPath }

  /// The signal's code (its path, how its response is read, how the forwarder sends it): the
  /// one place an OTLP signal meets it.
  var forwarded: any ForwardedSignal.Type {
    switch self {
    case .logs: LogsSignal.self
    case .metrics: MetricsSignal.self
    case .traces: TracesSignal.self
    }
  }
}
