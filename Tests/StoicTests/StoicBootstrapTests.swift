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
    // Everything is there for the next start.
    let spool = try TelemetrySpool.open(at: Self.root, fileSystem: disk)
    let messages = try spool.logs.entries().compactMap(\.record).filter { $0.label == "app" }
      .map(\.message)
    #expect(messages == (0..<5).map { "r\($0)" })
    try spool.close()
  }
}
