/// What an OTLP/HTTP request carries, which decides its path and its response's type.
public enum OTLPSignal: String, Sendable, Hashable, CaseIterable {
  /// Log records: `ExportLogsServiceRequest` to `/v1/logs`.
  case logs
  /// Metrics: `ExportMetricsServiceRequest` to `/v1/metrics`.
  case metrics

  /// OTLP's default path for the signal.
  public var defaultPath: String {
    switch self {
    case .logs: "/v1/logs"
    case .metrics: "/v1/metrics"
    }
  }
}
