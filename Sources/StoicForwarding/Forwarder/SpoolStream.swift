/// Which of a telemetry spool's two journals a forwarded range comes from.
public enum SpoolStream: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The log spool: one journal record per log record, sent to `/v1/logs`.
  case logs = 1
  /// The metrics spool: one journal record per sample of every changed series, sent to
  /// `/v1/metrics`.
  case metrics = 2

  /// `logs` or `metrics`.
  public var description: String {
    switch self {
    case .logs: "logs"
    case .metrics: "metrics"
    }
  }

  /// The one-letter tag the stream has in an idempotency key.
  var keyTag: String {
    switch self {
    case .logs: "l"
    case .metrics: "m"
    }
  }

  /// The OTLP signal the stream is sent as.
  public var signal: OTLPSignal {
    switch self {
    case .logs: .logs
    case .metrics: .metrics
    }
  }
}
