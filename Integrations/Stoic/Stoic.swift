public import StoicForwarding
import StoicStore
import StoicTelemetry

#if SwiftLog
  internal import Logging
  internal import StoicLogging
#endif
#if SwiftMetrics
  internal import CoreMetrics
  internal import StoicMetrics
#endif
#if Tracing
  internal import Tracing
  internal import StoicTracing
#endif

/// Stoic in one call: ``bootstrap(directory:environment:configure:)`` opens the telemetry
/// spool, makes it the backend of swift-log and swift-metrics, and starts forwarding when an
/// endpoint is configured; the ``StoicService`` it returns shuts everything down in one call.
///
/// ```swift
/// let telemetry = try await Stoic.bootstrap(directory: "/var/lib/app/telemetry") {
///   $0.exporter = OTLPExporterConfiguration(endpoint: "http://127.0.0.1:4318")
/// }
/// // … Logger(label:) and Counter(label:) write into the spool …
/// await telemetry.shutdown(timeout: .seconds(5))
/// ```
public enum Stoic {
  /// Opens the telemetry spool at `directory` and sets everything up around it.
  ///
  /// In order:
  /// 1. The configuration is filled from `environment`, then `configure` changes it (code wins
  ///    over the environment). An `OTEL_*` value that is invalid is ignored as if unset, as
  ///    the OpenTelemetry specification asks of an SDK (telemetry never stops the app): it is
  ///    reported once to ``StoicConfiguration/events`` (`forwarding.setting_ignored`, on
  ///    standard error by default) and listed in ``StoicService/ignoredSettings``.
  /// 2. The spool is opened (created if missing; recovered after a crash), off Swift's
  ///    cooperative pool.
  /// 3. When an exporter is configured (and forwarding is not disabled), the forwarder is
  ///    opened (its outbox in `forwarding/` in the spool's directory).
  /// 4. With the trait `SwiftLog`, `LoggingSystem.bootstrap` gets Stoic's handler; with
  ///    `SwiftMetrics`, `MetricsSystem.bootstrap` gets Stoic's factory (each unless turned off
  ///    in the configuration; both allow one bootstrap per process). Without the traits the
  ///    spool's own API (`TelemetrySpool.logs`,
  ///    `TelemetrySpool.metrics`) is the way in. With `Tracing`, `InstrumentationSystem.bootstrap`
  ///    gets a `StoicTracer` over the spool's span spool (unless
  ///    ``StoicConfiguration/bootstrapsTracing`` is off), and with `SwiftLog` too, every log
  ///    record written inside a span carries its trace and span id.
  /// 5. The forwarder's background loop starts (unless
  ///    ``StoicConfiguration/startsForwarding`` is off).
  ///
  /// Logs and metrics work with no endpoint at all: they stay in the spool until a later run
  /// or `stoic drain` forwards them.
  ///
  /// - Parameters:
  ///   - directory: The spool's directory.
  ///   - environment: Where the `OTEL_*` variables are read from (see `OTelEnvironment`); the
  ///     process's by default.
  ///   - configure: Changes the configuration after the environment has filled it.
  /// - Returns: The running service; call ``StoicService/shutdown(timeout:)`` before exit, or
  ///   run it in a `ServiceGroup` (trait `ServiceLifecycle`).
  /// - Throws: `configure`'s error; `ForwardingError` for an exporter configuration that code
  ///   set and that cannot work (never for the environment's); `StoreError` when the spool or
  ///   the outbox cannot be opened (`locked` when another process holds it).
  ///
  /// It runs on its caller's actor (`nonisolated(nonsending)`): `configure` is called there,
  /// so an app's `@main` (on the main actor) passes a closure that captures its own values;
  /// the blocking steps run on threads of their own.
  nonisolated(nonsending) public static func bootstrap(
    directory: String, environment: [String: String] = OTelEnvironment.processVariables,
    configure: (inout StoicConfiguration) throws -> Void = { _ in }
  ) async throws -> StoicService {
    var configuration = StoicConfiguration()
    let otel = applyEnvironment(environment, to: &configuration)
    try configure(&configuration)
    #if Tracing
      if configuration.bootstrapsTracing, configuration.telemetry.spans == nil {
        configuration.telemetry.spans = configuration.telemetry.logs
      }
    #endif
    let spool = try await open(directory: directory, configuration)
    // Through the log spool's sink: to `configuration.events`, and into the spool.
    otel.reportIgnored(to: spool.logs.eventSink)
    let forwarder: Forwarder?
    do {
      forwarder = try await openForwarder(spool: spool, configuration)
    } catch {
      try? await BlockingExecutor().run { () throws(StoreError) in try spool.close() }
      throw error
    }
    bootstrapSystems(spool: spool, configuration)
    if let forwarder, configuration.startsForwarding { await forwarder.start() }
    return StoicService(
      spool: spool, forwarder: forwarder, configuration: configuration,
      ignoredSettings: otel.ignored)
  }

  // MARK: The environment

  /// The one place where the environment is applied to the configuration, before `configure`
  /// runs: OpenTelemetry's variables as `OTelEnvironment` reads them. An endpoint variable
  /// (`OTEL_EXPORTER_OTLP_ENDPOINT`, or a signal's) sets the exporter, with its headers,
  /// protocol, compression and timeout; `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` set
  /// the resource attributes (`service.name` defaults to `unknown_service:<executable>`);
  /// `OTEL_METRIC_EXPORT_INTERVAL` the metrics spool's flush interval (the samples the forwarder
  /// sends), `OTEL_METRIC_EXPORT_TIMEOUT` the metrics requests' timeout;
  /// `OTEL_SDK_DISABLED=true` turns forwarding off (the spool keeps recording);
  /// `OTEL_TRACES_SAMPLER` (with `_ARG`) the sampler, the span limits' variables the limits.
  /// An invalid value is ignored as if unset (`OTelEnvironment.ignoringInvalid`); what was
  /// read is returned, with the values it ignored.
  static func applyEnvironment(
    _ environment: [String: String], to configuration: inout StoicConfiguration
  ) -> OTelEnvironment {
    var otel = OTelEnvironment.ignoringInvalid(environment)
    do {
      configuration.traceSampler = try TraceSampler.fromEnvironment(environment)
    } catch {
      otel.ignored.append(
        ForwardingError(.invalidArgument, error.description, variable: error.variable))
    }
    let (limits, ignoredLimits) = SpanLimits.fromEnvironment(environment)
    configuration.spanLimits = limits
    for variable in ignoredLimits {
      otel.ignored.append(
        ForwardingError(
          .invalidArgument, "\(variable): not a whole number of 0 or more", variable: variable))
    }
    configuration.exporter = otel.exporter
    configuration.forwarder.resourceAttributes = otel.resourceAttributes
    configuration.forwardingDisabled = otel.isSDKDisabled
    if let interval = otel.metricExportInterval {
      configuration.telemetry.metrics.flushInterval = interval
    }
    return otel
  }

  // MARK: Steps

  private static func open(directory: String, _ configuration: StoicConfiguration)
    async throws(StoreError) -> TelemetrySpool
  {
    let options = configuration.telemetry
    let fileSystem = configuration.fileSystem
    let events = configuration.events
    return try await BlockingExecutor().run { () throws(StoreError) in
      try TelemetrySpool.open(
        at: directory, options: options, fileSystem: fileSystem, events: events)
    }
  }

  private static func openForwarder(spool: TelemetrySpool, _ configuration: StoicConfiguration)
    async throws -> Forwarder?
  {
    guard let exporterConfiguration = configuration.exporter, !configuration.forwardingDisabled
    else { return nil }
    let exporter = try OTLPExporter(
      configuration: exporterConfiguration,
      transport: configuration.transport ?? DefaultTransport())
    return try await Forwarder.open(
      spool: spool, exporter: exporter, options: configuration.forwarder,
      fileSystem: configuration.fileSystem, events: configuration.events)
  }

  private static func bootstrapSystems(spool: TelemetrySpool, _ configuration: StoicConfiguration) {
    #if Tracing
      if configuration.bootstrapsTracing, let spans = spool.spans {
        InstrumentationSystem.bootstrap(
          StoicTracer(
            spans: spans, sampler: configuration.traceSampler, limits: configuration.spanLimits))
      }
    #endif
    #if SwiftLog
      if configuration.bootstrapsLogging {
        let level = Logger.Level(configuration.logLevel)
        var provider = configuration.metadataProvider
        #if Tracing
          if configuration.bootstrapsTracing {
            provider = .multiplex([provider, .stoicTraceContext].compactMap { $0 })
          }
        #endif
        LoggingSystem.bootstrap(
          { label, provider in
            StoicLogHandler(label: label, spool: spool, logLevel: level, metadataProvider: provider)
          }, metadataProvider: provider)
      }
    #endif
    #if SwiftMetrics
      if configuration.bootstrapsMetrics {
        MetricsSystem.bootstrap(StoicMetricsFactory(spool: spool))
      }
    #endif
  }
}

#if SwiftLog
  extension Logger.Level {
    /// swift-log's level for the spool's (the same seven; the inverse of
    /// `LogLevel.init(_: Logger.Level)`).
    init(_ level: LogLevel) {
      self = Self.allCases.first { LogLevel($0) == level } ?? .info
    }
  }
#endif
