public import StoicForwarding

/// A log record the collector holds, with where it came from.
public struct ReceivedLogRecord: Sendable, Hashable {
  /// The `Idempotency-Key` of the request that carried it (`nil` for none).
  public var key: String?
  /// The resource it was sent under.
  public var resource: OTLP.Resource?
  /// The instrumentation scope it was sent under.
  public var scope: OTLP.InstrumentationScope?
  /// The record.
  public var record: OTLP.LogRecord
}

/// A metric the collector holds, with where it came from.
public struct ReceivedMetric: Sendable, Hashable {
  /// The `Idempotency-Key` of the request that carried it (`nil` for none).
  public var key: String?
  /// The resource it was sent under.
  public var resource: OTLP.Resource?
  /// The instrumentation scope it was sent under.
  public var scope: OTLP.InstrumentationScope?
  /// The metric and its points.
  public var metric: OTLP.Metric
}
