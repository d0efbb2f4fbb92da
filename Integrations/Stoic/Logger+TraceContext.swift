// The trace context in log records: built only with both traits `SwiftLog` and `Tracing`.
#if SwiftLog && Tracing
  public import Logging
  internal import StoicTracing
  internal import Tracing

  extension Logger.MetadataProvider {
    /// The span of the current task (`ServiceContext.current`, as `withSpan` sets it) as log
    /// metadata: `trace_id` (32 hexadecimal digits), `span_id` (16) and `trace_flags` (the W3C
    /// flags in decimal), the keys swift-otel's provider writes and the forwarder moves into
    /// the OTLP log record's own `trace_id`, `span_id` and `flags` (see
    /// `TraceContextKeys.swiftOTel`). Nothing outside a span. `Stoic.bootstrap` adds it to the
    /// bootstrapped loggers when it records spans.
    public static let stoicTraceContext = Logger.MetadataProvider {
      guard let span = ServiceContext.current?.stoicSpanContext else { return [:] }
      return [
        "trace_id": .string(span.traceID.description),
        "span_id": .string(span.spanID.description),
        "trace_flags": .string(String(span.traceFlags)),
      ]
    }
  }
#endif
