/// What a span's start writes into the span spool: who it is, whose child, what kind, its name
/// and when it started. Everything else is known only when it ends (``SpanEnd``).
///
/// After a crash, a start with no end in the spool is a span the crash cut short: the next
/// open ends it as unfinished (``SpanEnd/unfinished(_:at:)``).
public struct SpanStart: Sendable, Hashable {
  /// The trace it belongs to.
  public var traceID: TraceID
  /// Its own id.
  public var spanID: SpanID
  /// Its parent's id, or the invalid id (0) for a root span.
  public var parentSpanID: SpanID
  /// The W3C trace flags (bit 0: sampled).
  public var traceFlags: UInt8
  /// The W3C `tracestate` it was started with (empty when none).
  public var traceState: String
  /// Its kind.
  public var kind: Kind
  /// Its name (swift-distributed-tracing's operation name).
  public var name: String
  /// When it started, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var startTimeNanoseconds: Int64

  /// Creates a start; every parameter is the property of the same name.
  public init(
    traceID: TraceID, spanID: SpanID, parentSpanID: SpanID = SpanID(0), traceFlags: UInt8 = 1,
    traceState: String = "", kind: Kind = .internal, name: String, startTimeNanoseconds: Int64
  ) {
    self.traceID = traceID
    self.spanID = spanID
    self.parentSpanID = parentSpanID
    self.traceFlags = traceFlags
    self.traceState = traceState
    self.kind = kind
    self.name = name
    self.startTimeNanoseconds = startTimeNanoseconds
  }

  /// A span's kind, numbered as OTLP's `Span.SpanKind`.
  public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
    /// Unspecified (OTLP's 0; a reader treats it as internal).
    case unspecified = 0
    /// An operation inside the service.
    case `internal` = 1
    /// The server side of a remote call.
    case server = 2
    /// The client side of a remote call.
    case client = 3
    /// The sender of an asynchronous message.
    case producer = 4
    /// The receiver of an asynchronous message.
    case consumer = 5
  }
}
