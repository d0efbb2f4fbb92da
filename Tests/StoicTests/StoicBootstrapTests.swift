import Stoic
import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// The one call without the traits' systems: the spool opened, the forwarder when an exporter
/// is configured, the shutdown's report, a log after shutdown.
@Suite("Stoic.bootstrap and StoicService.shutdown")
struct StoicBootstrapTests {
  static let root = "/data/telemetry"

  /// A configuration on a simulated disk that bootstraps neither system (once per process:
  /// one test does it, ``StoicSystemsTests``).
  static func configure(_ disk: SimulatedFileSystem) -> (inout StoicConfiguration) -> Void {
    { configuration in
      configuration.fileSystem = disk
      configuration.bootstrapsLogging = false
      configuration.bootstrapsMetrics = false
      configuration.bootstrapsTracing = false
    }
  }

  @Test("no endpoint: the spool records, no forwarder, shutdown leaves everything in the spool")
  func noEndpoint() async throws {
    let disk = SimulatedFileSystem()
    let telemetry = try await Stoic.bootstrap(
      directory: Self.root, environment: [:], configure: Self.configure(disk))
    #expect(telemetry.forwarder == nil)
    for index in 0..<5 {
      #expect(telemetry.spool.logs.log(level: .info, label: "app", message: "r\(index)") != nil)
    }
    telemetry.spool.metrics.counter(label: "app.jobs").increment(by: 4)
    let report = await telemetry.shutdown(timeout: .seconds(2))
    #expect(report.errors.isEmpty)
    #expect(report.logRecordsLeft >= 5)
    #expect(report.metricRecordsLeft >= 1)
    #expect(report.delivered == ForwardingReport())
    // Idempotent, and a log call after the shutdown is dropped and counted, not a crash.
    let again = await telemetry.shutdown(timeout: .seconds(2))
    #expect(again.logRecordsLeft == report.logRecordsLeft)
    let dropped = telemetry.spool.dropCounts.total
    #expect(telemetry.spool.logs.log(level: .info, label: "app", message: "late") == nil)
    #expect(telemetry.spool.dropCounts.total == dropped + 1)
    #expect(telemetry.spool.dropCounts.afterClose == 1)
    // Everything is there for the next start.
    let spool = try TelemetrySpool.open(at: Self.root, fileSystem: disk)
    let messages = try spool.logs.entries().compactMap(\.record).filter { $0.label == "app" }
      .map(\.message)
    #expect(messages == (0..<5).map { "r\($0)" })
    try spool.close()
  }

  /// An app's `main` runs on the main actor: the one call takes a closure written there, one
  /// that captures the app's local values, as it stands in the README.
  @MainActor
  @Test("bootstrap called from the main actor with a closure that captures a local value")
  func fromTheMainActor() async throws {
    let disk = SimulatedFileSystem()
    let endpoint = "http://127.0.0.1:9"
    let telemetry = try await Stoic.bootstrap(directory: Self.root, environment: [:]) {
      configuration in
      configuration.exporter = OTLPExporterConfiguration(endpoint: endpoint)
      configuration.startsForwarding = false
      configuration.fileSystem = disk
      configuration.bootstrapsLogging = false
      configuration.bootstrapsMetrics = false
      configuration.bootstrapsTracing = false
    }
    #expect(telemetry.forwarder?.exporter.configuration.endpoint == endpoint)
    let report = await telemetry.shutdown(timeout: .seconds(1))
    #expect(report.errors.isEmpty)
  }

  @Test("the OTEL_* variables configure the exporter and the service; code wins; disabled")
  func environment() async throws {
    let disk = SimulatedFileSystem()
    let variables = [
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
      "OTEL_SERVICE_NAME": "checkout",
    ]
    let telemetry = try await Stoic.bootstrap(
      directory: Self.root, environment: variables
    ) { configuration in
      Self.configure(disk)(&configuration)
      #expect(configuration.exporter?.endpoint.hasPrefix("http://127.0.0.1:4318") == true)
      #expect(configuration.forwarder.resourceAttributes.first?.1 == "checkout")
      configuration.startsForwarding = false
      configuration.forwarder.resourceAttributes = [("service.name", "from-code")]
    }
    let forwarder = try #require(telemetry.forwarder)
    #expect(forwarder.options.resourceAttributes.first?.1 == "from-code")
    await telemetry.shutdown(timeout: .seconds(1))

    var disabled = variables
    disabled["OTEL_SDK_DISABLED"] = "TRUE"
    let recording = try await Stoic.bootstrap(
      directory: Self.root, environment: disabled, configure: Self.configure(disk))
    #expect(recording.forwarder == nil)
    #expect(recording.spool.logs.log(level: .info, label: "app", message: "kept") != nil)
    await recording.shutdown(timeout: .seconds(1))

  }

  /// The OpenTelemetry rule: an SDK warns about an invalid value and treats it as unset.
  /// Each case: the variables, then whether a forwarder is left (what is valid still applies).
  static let invalidEnvironments: [([String: String], String, Bool)] = [
    (["OTEL_EXPORTER_OTLP_ENDPOINT": "not a url"], "OTEL_EXPORTER_OTLP_ENDPOINT", false),
    (["OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://x"], "OTEL_EXPORTER_OTLP_ENDPOINT", false),
    (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://"], "OTEL_EXPORTER_OTLP_ENDPOINT", false),
    (
      ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"],
      "OTEL_EXPORTER_OTLP_PROTOCOL", true
    ),
    (
      ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_EXPORTER_OTLP_TIMEOUT": "abc"],
      "OTEL_EXPORTER_OTLP_TIMEOUT", true
    ),
    (
      [
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization",
      ], "OTEL_EXPORTER_OTLP_HEADERS", true
    ),
    (["OTEL_RESOURCE_ATTRIBUTES": "team"], "OTEL_RESOURCE_ATTRIBUTES", false),
  ]

  @Test(
    "an invalid OTEL_* value is ignored as if unset: the service starts, records, says so once",
    arguments: invalidEnvironments)
  func invalidEnvironmentIsIgnored(
    variables: [String: String], variable: String, keepsForwarder: Bool
  ) async throws {
    let disk = SimulatedFileSystem()
    let events = SleepingLock<[StoreEvent]>([])
    let telemetry = try await Stoic.bootstrap(directory: Self.root, environment: variables) {
      Self.configure(disk)(&$0)
      $0.startsForwarding = false
      $0.events = EventSink { event in events.withLock { $0.append(event) } }
    }
    #expect(telemetry.ignoredSettings.map(\.variable) == [variable])
    #expect((telemetry.forwarder != nil) == keepsForwarder)
    let said = events.withLock { $0 }.filter { $0.definition == ForwardingEvents.settingIgnored }
    #expect(said.map { $0["variable"] } == [variable])
    // (The message names the schemes it wants, so a value such as `http://` is in it.)
    for value in variables.values where !value.hasPrefix("http://") {
      #expect(said.allSatisfy { !($0["reason"] ?? "").contains(value) })
    }
    if keepsForwarder {
      let configuration = try #require(telemetry.forwarder?.exporter.configuration)
      #expect(configuration.encoding == .protobuf)
      #expect(configuration.timeout == OTLPExporterConfiguration(endpoint: "http://h").timeout)
      #expect(configuration.headers.fields.isEmpty)
    }
    #expect(telemetry.spool.logs.log(level: .info, label: "app", message: "kept") != nil)
    let report = await telemetry.shutdown(timeout: .seconds(1))
    #expect(report.errors.isEmpty)
    let spool = try TelemetrySpool.open(at: Self.root, fileSystem: disk)
    let records = try spool.logs.entries().compactMap(\.record)
    #expect(records.contains { $0.label == "app" && $0.message == "kept" })
    try spool.close()
  }
}
