public import StoicForwarding
public import StoicStore
public import StoicTelemetry

#if SwiftLog
  public import Logging
#endif

/// Everything ``Stoic/Stoic/bootstrap(directory:environment:configure:)`` sets up, with the
/// defaults of the types it composes: filled from the environment first, then changed by the
/// `configure` closure, so code wins over the environment.
///
/// ```swift
/// let telemetry = try await Stoic.bootstrap(directory: "/var/lib/app/telemetry") {
///   $0.exporter = OTLPExporterConfiguration(endpoint: "http://127.0.0.1:4318")
///   $0.logLevel = .debug
/// }
/// ```
public struct StoicConfiguration: Sendable {
  /// The log spool's and the metrics spool's options (quota, durable level, sync delay, metric
  /// flush interval, redaction, …).
  public var telemetry = TelemetryOptions()
  /// Where and how to forward (endpoint, encoding, compression, headers, timeout). `nil`: no
  /// forwarder; logs and metrics stay in the spool, for a later run or `stoic drain`.
  public var exporter: OTLPExporterConfiguration?
  /// How the forwarder forms batches, describes the app (resource attributes) and backs off.
  public var forwarder = ForwarderOptions()
  /// The transport the exporter sends through; a `DefaultTransport` when `nil`.
  public var transport: (any Transport)?
  /// Whether the forwarder's background loop starts at once (otherwise forward with
  /// ``StoicService/run()`` or the forwarder's own calls).
  public var startsForwarding = true
  /// The least severe level the bootstrapped swift-log handlers log. Default `.info`.
  public var logLevel: LogLevel = .info
  /// Whether to call `LoggingSystem.bootstrap` with Stoic's handler (trait `SwiftLog`; ignored
  /// without it). swift-log allows it once per process: turn it off when the app bootstraps
  /// logging itself (and build its handlers with `StoicLogHandler`).
  public var bootstrapsLogging = true
  /// Whether to call `MetricsSystem.bootstrap` with Stoic's factory (trait `SwiftMetrics`;
  /// ignored without it). Once per process, like logging.
  public var bootstrapsMetrics = true
  /// Whether to record spans: with the trait `Tracing`, the spool is opened with a span spool
  /// (`TelemetryOptions.spans`, the log spool's options unless set) and
  /// `InstrumentationSystem.bootstrap` gets a `StoicTracer` over it; with `SwiftLog` too, the
  /// bootstrapped loggers carry the current span's `trace_id`, `span_id` and `trace_flags`,
  /// which the forwarder moves into the OTLP log record's own fields. Ignored without the
  /// trait. `InstrumentationSystem` allows one bootstrap per process, like logging.
  public var bootstrapsTracing = true
  /// Which spans are recorded: `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, else
  /// `parentbased_always_on`.
  public var traceSampler: TraceSampler = .default
  /// How much a span keeps: the `OTEL_SPAN_*_LIMIT` and `OTEL_ATTRIBUTE_*_LIMIT` variables,
  /// else the OpenTelemetry SDK's defaults.
  public var spanLimits = SpanLimits()
  #if SwiftLog
    /// The metadata provider given to `LoggingSystem.bootstrap` (task-local values, for
    /// example). Trait `SwiftLog`.
    public var metadataProvider: Logger.MetadataProvider?
  #endif
  /// Where the spool's, the forwarder's and the outbox's events go (they are also written into
  /// the log spool). Called on the thread that raised them; must not block or call back.
  ///
  /// By default the diagnostic channel (`EventSink.standardError`): warnings and errors, one
  /// line each on standard error, one line per kind a minute at most (with the count of those
  /// it stood for), never a header value or a record's content. Replace it with an app's own
  /// sink (`EventSink.standardError.and(mine)` keeps both), or silence it with `.discard`.
  public var events: EventSink = .standardError
  /// The timeout ``StoicService/run()`` shuts down with once cancelled or told to shut down.
  public var shutdownTimeout: Duration = .seconds(5)
  /// The door to the disk; the real one by default (tests pass a simulated disk).
  public var fileSystem: any FileSystem = PosixFileSystem()
  /// Whether forwarding is turned off (`OTEL_SDK_DISABLED=true`): the spool keeps recording,
  /// nothing is sent, even with an ``exporter``.
  public var forwardingDisabled = false

  /// The defaults: no exporter, both systems bootstrapped, level `.info`, a five-second
  /// shutdown.
  public init() {}
}
