public import StoicTelemetry

/// A batch as the forwarder's outbox holds it: a range of a spool's sequences, never a copy of
/// the records. The records stay in the spool until the batch is acknowledged, so a batch costs
/// the outbox a few bytes, whatever its size.
public struct SpoolRange: Sendable, Hashable, CustomStringConvertible {
  /// The journal the records are in.
  public var stream: SpoolStream
  /// The first sequence of the batch.
  public var first: UInt64
  /// The last sequence of the batch (at least ``first``).
  public var last: UInt64

  /// Creates a range.
  public init(stream: SpoolStream, first: UInt64, last: UInt64) {
    self.stream = stream
    self.first = first
    self.last = last
  }

  /// `logs 12…40`.
  public var description: String { "\(stream) \(first)…\(last)" }

  /// The batch's idempotency key: the spool's identity, the stream and the range, so that the
  /// same records of the same spool are always sent under the same key, whoever forms the
  /// batch and however often (`<identity hex>-l-12-40`). Visible ASCII, at most 77 bytes.
  public func key(spool identity: SpoolIdentity) -> String {
    "\(identity.hex)-\(stream.keyTag)-\(first)-\(last)"
  }
}

/// Which of a telemetry spool's journals a forwarded range comes from.
public enum SpoolStream: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The log spool: one journal record per log record, sent to `/v1/logs`.
  case logs = 1
  /// The metrics spool: one journal record per sample of every changed series, sent to
  /// `/v1/metrics`.
  case metrics = 2
  /// The span spool: a start and an end record per span, the ends sent to `/v1/traces`.
  case traces = 3

  /// `logs`, `metrics` or `traces`.
  public var description: String { forwarded.name }

  /// The one-letter tag the stream has in an idempotency key.
  var keyTag: String { forwarded.keyTag }

  /// The OTLP signal the stream is sent as.
  public var signal: OTLPSignal { forwarded.signal }

  /// The signal the stream's records are forwarded as (its range in the spool, its batches,
  /// their encoding and release): the one place the persisted tag meets its code.
  var forwarded: any ForwardedSignal.Type {
    switch self {
    case .logs: LogsSignal.self
    case .metrics: MetricsSignal.self
    case .traces: TracesSignal.self
    }
  }
}
