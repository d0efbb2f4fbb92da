// Bootstraps LoggingSystem and MetricsSystem, which swift-log and swift-metrics allow once per
// process: the only test of this test process that does (every other one turns both off).
#if SwiftLog && SwiftMetrics
  import Logging
  import Metrics
  import Stoic
  import StoicStore
  import StoicTelemetry
  import StoicTesting
  import Testing

  @Suite("Stoic.bootstrap with swift-log and swift-metrics")
  struct StoicSystemsTests {
    @Test("no endpoint: Logger and Counter write into the spool, kept for a later run")
    func loggerAndCounterIntoTheSpool() async throws {
      let disk = SimulatedFileSystem()
      let telemetry = try await Stoic.bootstrap(directory: "/data/telemetry", environment: [:]) {
        $0.fileSystem = disk
        $0.logLevel = .debug
      }
      #expect(telemetry.forwarder == nil)
      let logger = Logger(label: "app")
      logger.debug("starting", metadata: ["seq": "0"])
      logger.info("started", metadata: ["seq": "1"])
      logger.trace("below the level")
      Counter(label: "app.requests").increment(by: 5)
      let report = await telemetry.shutdown(timeout: .seconds(2))
      #expect(report.errors.isEmpty)
      #expect(report.logRecordsLeft >= 2)
      let spool = try TelemetrySpool.open(at: "/data/telemetry", fileSystem: disk)
      #expect(try StoicTestSupport.spooled(spool, label: "app") == [0, 1])
      #expect(try StoicTestSupport.sampledCounter(spool, name: "app.requests") == 5)
      try spool.close()
    }
  }
#endif
