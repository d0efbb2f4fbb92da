import Foundation
import Stoic
import StoicCollector
import StoicForwarding
import StoicTelemetry
import Testing

#if SwiftLog
  import Logging
  import StoicLogging
#endif

/// The one call forwarding to the example collector, in process on loopback.
@Suite("Stoic.bootstrap forwarding to the example collector")
struct StoicForwardingToCollectorTests {
  typealias Support = StoicTestSupport

  @Test("records and a counter logged after bootstrap arrive once shutdown(timeout:) returns")
  func deliveredByShutdown() async throws {
    try await Support.withCollector("collector") { directory, collector in
      let telemetry = try await Stoic.bootstrap(
        directory: directory + "/spool", environment: [:]
      ) {
        $0.exporter = OTLPExporterConfiguration(endpoint: collector.baseURL)
        $0.bootstrapsLogging = false
        $0.bootstrapsMetrics = false
        $0.bootstrapsTracing = false
        // No round of the loop before the shutdown: the shutdown's drain delivers everything.
        $0.forwarder.interval = .seconds(3600)
        $0.startsForwarding = false
      }
      #expect(telemetry.forwarder != nil)
      #if SwiftLog
        let logger = Logger(label: "app") { StoicLogHandler(label: $0, spool: telemetry.spool) }
        for index in 0..<40 { logger.info("record \(index)", metadata: ["seq": "\(index)"]) }
      #else
        for index in 0..<40 {
          telemetry.spool.logs.log(
            level: .info, label: "app", message: "record \(index)",
            metadata: ["seq": .string("\(index)")])
        }
      #endif
      telemetry.spool.metrics.counter(label: "app.jobs").increment(by: 9)
      // A timeout the final drain never needs, even under a sanitizer on two busy cores: the
      // bound itself is checked against silent and refusing endpoints (ForwarderLifecycleTests).
      let timeout = Duration.seconds(60)
      let report = await telemetry.shutdown(timeout: timeout)
      #expect(report.errors.isEmpty)
      #expect(report.finalDrain.logRecordsDelivered >= 40)
      #expect(report.finalDrain.dataPointsDelivered >= 1)
      // What is left may only be the spool's own events raised after the last batch formed.
      #expect(try Support.onlySpoolEventsLeft(inSpool: directory + "/spool"))
      #expect(report.duration < timeout + .seconds(10))
      #expect(try Support.delivered(collector, label: "app") == Array(0..<40))
      #expect(try Support.counterValue(collector, name: "app.jobs") == 9)
    }
  }

  @Test("OTEL_METRIC_EXPORT_INTERVAL: a counter leaves within the interval, without a shutdown")
  func metricsLeaveByTheInterval() async throws {
    try await Support.withCollector("metric-interval") { directory, collector in
      let telemetry = try await Stoic.bootstrap(
        directory: directory + "/spool",
        environment: [
          "OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL,
          "OTEL_METRIC_EXPORT_INTERVAL": "200", "OTEL_METRIC_EXPORT_TIMEOUT": "4000",
        ]
      ) {
        $0.bootstrapsLogging = false
        $0.bootstrapsMetrics = false
        $0.bootstrapsTracing = false
        $0.forwarder.interval = .milliseconds(100)
      }
      #expect(telemetry.configuration.telemetry.metrics.flushInterval == .milliseconds(200))
      let exporter = try #require(telemetry.forwarder?.exporter.configuration)
      #expect(exporter.timeout(for: .metrics) == .seconds(4))
      #expect(exporter.timeout(for: .logs) == exporter.timeout)
      telemetry.spool.metrics.counter(label: "app.interval").increment(by: 5)
      // Stoic's own interval (10 s) would not send it in this time; 200 ms does, many times
      // over, even on two busy cores.
      let clock = ContinuousClock()
      let deadline = clock.now + .seconds(8)
      var value: Int64?
      while clock.now < deadline {
        value = try Support.counterValue(collector, name: "app.interval")
        if value == 5 { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(value == 5)
      await telemetry.shutdown(timeout: .seconds(30))
    }
  }
}
