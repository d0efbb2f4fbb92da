// The tracer is built only with the `Tracing` trait: `swift build --traits Tracing`.
#if Tracing
  import StoicStore
  public import StoicTelemetry
  public import Tracing

  /// What identifies a span to the spans and services after it: its trace, its id, the W3C
  /// trace flags and trace state. ``StoicTracer`` keeps it in the `ServiceContext` of every
  /// span it starts (`ServiceContext.stoicSpanContext`), reads a
  /// parent's from there, and carries it across processes as a W3C `traceparent`.
  public struct StoicSpanContext: Sendable, Hashable {
    /// The trace.
    public var traceID: TraceID
    /// The span.
    public var spanID: SpanID
    /// The W3C trace flags (bit 0: sampled).
    public var traceFlags: UInt8
    /// The W3C `tracestate` (empty when none).
    public var traceState: String
    /// Whether it came from another process (extracted from a `traceparent`).
    public var isRemote: Bool

    /// Creates a span context; every parameter is the property of the same name.
    public init(
      traceID: TraceID, spanID: SpanID, traceFlags: UInt8, traceState: String = "",
      isRemote: Bool = false
    ) {
      self.traceID = traceID
      self.spanID = spanID
      self.traceFlags = traceFlags
      self.traceState = traceState
      self.isRemote = isRemote
    }

    /// Whether the span is sampled (recorded and forwarded).
    public var isSampled: Bool { traceFlags & 1 == 1 }
  }

  /// The service context key of ``StoicSpanContext``.
  enum StoicSpanContextKey: ServiceContextKey {
    typealias Value = StoicSpanContextValue
    static var nameOverride: String? { "stoic-span-context" }
  }

  /// What a `ServiceContext` holds for a span: the state of a span of this process, whose
  /// identity it reads from there, or a span context set on its own (a remote parent). One
  /// reference either way, which the context keeps inline: a span started stores no box of its
  /// own in its context.
  enum StoicSpanContextValue: Sendable {
    /// A span this process started.
    case span(SleepingLock<StoicSpan.State>)
    /// A span context on its own.
    case context(Box)

    /// A span context kept by reference.
    final class Box: Sendable {
      let context: StoicSpanContext
      init(_ context: StoicSpanContext) { self.context = context }
    }

    /// The span context it holds.
    var spanContext: StoicSpanContext {
      switch self {
      case .span(let state): state.withLock { $0.spanContext }
      case .context(let box): box.context
      }
    }
  }

  extension ServiceContext {
    /// The span context of the span this context belongs to, if a ``StoicTracer`` started one
    /// or extracted one from a `traceparent`.
    public var stoicSpanContext: StoicSpanContext? {
      get { self[StoicSpanContextKey.self]?.spanContext }
      set { self[StoicSpanContextKey.self] = newValue.map { .context(.init($0)) } }
    }
  }
#endif
