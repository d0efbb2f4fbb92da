import Foundation
import Stoic
import StoicForwarding
import StoicStore
import StoicTelemetry
import Testing

/// The one call's shutdown against endpoints that never deliver: one that accepts connections
/// and never answers, and one that refuses them. `shutdown(timeout:)` returns within its
/// timeout (plus the slack of cancelling the sends and closing the files), far below the
/// request's own 30-second timeout, and every record stays in the spool for the next start.
@Suite("StoicService.shutdown(timeout:) against silent and refusing endpoints")
struct StoicShutdownTimeoutTests {
  typealias Support = StoicTestSupport

  /// The slack above the timeout: cancelling the sends in flight and the outbox's and the
  /// spool's durable close on two busy cores (the request's own timeout is 30 s).
  static let slack = Duration.seconds(10)

  /// Bootstraps forwarding to `endpoint`, logs while the forwarder's loop is stuck on it, shuts
  /// down with a one-second timeout, measures it, and checks the spool kept every record.
  func shutdownIsBounded(endpoint: String, _ name: String) async throws {
    let directory = try Support.scratchDirectory(name)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let telemetry = try await Stoic.bootstrap(directory: directory, environment: [:]) {
      $0.exporter = OTLPExporterConfiguration(endpoint: endpoint, timeout: .seconds(30))
      $0.bootstrapsLogging = false
      $0.bootstrapsMetrics = false
      $0.bootstrapsTracing = false
      $0.forwarder.interval = .milliseconds(50)
    }
    for index in 0..<10 {
      telemetry.spool.logs.log(
        level: .info, label: "app", message: "r\(index)", metadata: ["seq": .string("\(index)")])
    }
    telemetry.spool.metrics.counter(label: "app.jobs").increment(by: 3)
    // The loop's first round is sent (and stuck) before the shutdown starts.
    try await Task.sleep(for: .milliseconds(300))
    let timeout = Duration.seconds(1)
    let clock = ContinuousClock()
    let started = clock.now
    let report = await telemetry.shutdown(timeout: timeout)
    let took = clock.now - started
    #expect(took < timeout + Self.slack, "shutdown took \(took)")
    #expect(report.duration < timeout + Self.slack)
    #expect(report.finalDrain.logRecordsDelivered == 0)
    #expect(report.logRecordsLeft >= 10)
    let spool = try TelemetrySpool.open(at: directory)
    #expect(try Support.spooled(spool, label: "app") == Array(0..<10))
    try spool.close()
  }

  @Test("an endpoint that accepts connections and never answers costs at most the timeout")
  func silentEndpoint() async throws {
    // A listening socket nobody accepts from: the kernel completes the connections, and no
    // byte of an answer ever comes.
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    defer { PosixSocket.close(descriptor) }
    try await shutdownIsBounded(endpoint: "http://127.0.0.1:\(port)", "silent")
  }

  @Test("an endpoint that refuses connections costs at most the timeout")
  func refusingEndpoint() async throws {
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    PosixSocket.close(descriptor)
    try await shutdownIsBounded(endpoint: "http://127.0.0.1:\(port)", "refusing")
  }
}
