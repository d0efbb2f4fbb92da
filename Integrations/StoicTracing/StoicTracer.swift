// The tracer is built only with the `Tracing` trait: `swift build --traits Tracing`. A default
// build compiles nothing here and fetches nothing.
#if Tracing
  public import StoicStore
  public import StoicTelemetry
  import Synchronization
  public import Tracing

  /// A swift-distributed-tracing `Tracer` whose spans are written into Stoic's span spool: a
  /// span's start is in the kernel when ``startSpan(_:context:ofKind:at:function:file:line:)``
  /// returns and its end (the whole span) when `end()` does, so a crash of the process loses
  /// neither, and a span the crash cut short is ended as unfinished by the next open of the
  /// spool and forwarded once (see `SpanSpool`).
  ///
  /// ```swift
  /// var options = TelemetryOptions()
  /// options.spans = LogSpoolOptions()
  /// let telemetry = try TelemetrySpool.open(at: "/var/lib/app/telemetry", options: options)
  /// InstrumentationSystem.bootstrap(try StoicTracer(spool: telemetry))
  /// try await withSpan("GET /users") { span in span.attributes["http.route"] = "/users" }
  /// ```
  ///
  /// Sampling is the OpenTelemetry SDK's (`TraceSampler`, `OTEL_TRACES_SAMPLER`, by default
  /// `parentbased_always_on`): a span not sampled writes nothing and still carries its trace,
  /// unsampled, to its children and to other services. Attributes, events and links are kept
  /// within `SpanLimits` (the SDK's defaults, `OTEL_SPAN_*_LIMIT`), what is dropped counted
  /// in the span. As an `Instrument`, it injects and extracts W3C `traceparent` and
  /// `tracestate`.
  public final class StoicTracer: Tracer, Sendable {
    /// The span spool the spans are written into.
    public let spans: SpanSpool
    /// Which spans are recorded.
    public let sampler: TraceSampler
    /// How much a span keeps.
    public let limits: SpanLimits
    /// The state of the ids' generator: SplitMix64 over an atomic counter, seeded from the
    /// system's generator once. An id costs one atomic add and a few multiplications, where
    /// the system's generator costs a system call per 8 bytes.
    let idState: Atomic<UInt64>

    /// A tracer writing into `spans`.
    public init(
      spans: SpanSpool, sampler: TraceSampler = .default, limits: SpanLimits = SpanLimits()
    ) {
      self.spans = spans
      self.sampler = sampler
      self.limits = limits
      var system = SystemRandomNumberGenerator()
      idState = Atomic(system.next())
    }

    /// The next 64 random bits of the ids' generator (thread-safe).
    func nextRandom() -> UInt64 {
      var value = idState.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }

    /// A tracer writing into `spool`'s span spool.
    ///
    /// - Throws: `StoreError.Code.invalidArgument` when the spool has no span spool (open it
    ///   with `TelemetryOptions.spans` set).
    public convenience init(
      spool: TelemetrySpool, sampler: TraceSampler = .default, limits: SpanLimits = SpanLimits()
    ) throws(StoreError) {
      guard let spans = spool.spans else {
        throw StoreError(
          .invalidArgument,
          "the telemetry spool has no span spool: open it with TelemetryOptions.spans set",
          path: spool.directory)
      }
      self.init(spans: spans, sampler: sampler, limits: limits)
    }

    /// Starts a span: a child of the span in `context` (its trace, its parent), or the root
    /// of a new trace. A sampled span's start is written into the span spool before this
    /// returns; an unsampled one writes nothing.
    public func startSpan<Instant: TracerInstant>(
      _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
      at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> StoicSpan {
      var spanContext = context()
      let parent = spanContext.stoicSpanContext
      var generator = IDGenerator(tracer: self)
      let traceID = parent?.traceID ?? TraceID.random(using: &generator)
      let spanID = SpanID.random(using: &generator)
      let sampled = sampler.isSampled(traceID: traceID, parentFlags: parent?.traceFlags)
      let flags = (parent?.traceFlags ?? 0) & ~1 | (sampled ? 1 : 0)
      let start = SpanStart(
        traceID: traceID, spanID: spanID, parentSpanID: parent?.spanID ?? SpanID(0),
        traceFlags: flags, traceState: parent?.traceState ?? "", kind: SpanStart.Kind(kind),
        name: operationName, startTimeNanoseconds: Int64(clamping: instant().nanosecondsSinceEpoch))
      let state = SleepingLock(StoicSpan.State(start: start, tracer: self))
      spanContext[StoicSpanContextKey.self] = .span(state)
      if sampled { spans.start(start) }
      return StoicSpan(state: state, context: spanContext, isRecording: sampled)
    }

    /// Makes every span ended so far durable (a sync of the span spool). Blocks: call it from
    /// a thread that may block.
    public func forceFlush() {
      try? spans.flush()
    }

    /// Reads a W3C `traceparent` (and `tracestate`) from `carrier` into `context`: the spans
    /// started in it are children of the remote span. An invalid header is ignored (a new
    /// trace starts); a `tracestate` longer than `TraceParent.stateLimit` is
    /// dropped.
    public func extract<Carrier, Extract>(
      _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract: Extractor, Extract.Carrier == Carrier {
      guard let header = extractor.extract(key: TraceParent.headerName, from: carrier),
        let parent = TraceParent(header: header)
      else { return }
      var state = extractor.extract(key: TraceParent.stateHeaderName, from: carrier) ?? ""
      if state.utf8.count > TraceParent.stateLimit { state = "" }
      context.stoicSpanContext = StoicSpanContext(
        traceID: parent.traceID, spanID: parent.spanID, traceFlags: parent.traceFlags,
        traceState: state, isRemote: true)
    }

    /// Writes the span in `context` into `carrier` as a W3C `traceparent` (and `tracestate`
    /// when it has one); nothing when `context` holds no span.
    public func inject<Carrier, Inject>(
      _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject: Injector, Inject.Carrier == Carrier {
      guard let span = context.stoicSpanContext else { return }
      let parent = TraceParent(
        traceID: span.traceID, spanID: span.spanID, traceFlags: span.traceFlags)
      injector.inject(parent.header, forKey: TraceParent.headerName, into: &carrier)
      if !span.traceState.isEmpty {
        injector.inject(span.traceState, forKey: TraceParent.stateHeaderName, into: &carrier)
      }
    }
  }

  /// The tracer's ids' generator as a `RandomNumberGenerator`.
  struct IDGenerator: RandomNumberGenerator {
    let tracer: StoicTracer
    mutating func next() -> UInt64 { tracer.nextRandom() }
  }

  extension SpanStart.Kind {
    /// The kind of swift-distributed-tracing's `kind`.
    init(_ kind: SpanKind) {
      switch kind {
      case .server: self = .server
      case .client: self = .client
      case .producer: self = .producer
      case .consumer: self = .consumer
      case .internal: self = .internal
      }
    }
  }
#endif
