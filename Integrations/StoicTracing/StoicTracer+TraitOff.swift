// Without the `Tracing` trait this module has no tracer; this stand-in makes the compiler say
// which trait brings it, instead of "cannot find 'StoicTracer' in scope".
#if !Tracing
  public import StoicTelemetry

  /// The stand-in of the swift-distributed-tracing `Tracer` over the span spool, which is
  /// built only with the package trait `Tracing`: depend on Stoic with
  /// `.package(path: "path/to/stoic", traits: ["Tracing"])`.
  @available(
    *, unavailable,
    message:
      "StoicTracer is built only with Stoic's package trait Tracing: depend on it with .package(path: \"path/to/stoic\", traits: [\"Tracing\"])"
  )
  public final class StoicTracer {
    /// Refused: the tracer needs the trait `Tracing`.
    @available(
      *, unavailable,
      message:
        "StoicTracer is built only with Stoic's package trait Tracing: depend on it with .package(path: \"path/to/stoic\", traits: [\"Tracing\"])"
    )
    public init(
      spans: SpanSpool, sampler: TraceSampler = .default, limits: SpanLimits = SpanLimits()
    ) {}
  }
#endif
