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
}
