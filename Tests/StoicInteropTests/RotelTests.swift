import Foundation
import StoicCollector
import StoicForwarding
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The forwarder through Rotel, a third-party OpenTelemetry collector written in Rust (the
/// `rotel-agent` of the pinned PyPI wheel `rotel`): `stoic-agent` sends OTLP/HTTP to Rotel's
/// receiver, Rotel exports OTLP/HTTP (protobuf) to the example collector. For each encoding and
/// compression the agent sends through: Rotel is restarted while the agent sends, the agent is
/// SIGKILLed and started again until drained. Every record arrives at least once (Rotel keeps no
/// idempotency key, so a batch resent after a kill may arrive twice), metrics arrive, neither
/// side refuses a request, and Rotel logs no export error (it logs `Exporting failed … failed
/// to decode response` when an answer is not a valid `Export*ServiceResponse`) and no error or
/// warning but the one a request cut off by the agent's SIGKILL causes.
@Suite(
  "Interop: the forwarder through Rotel to the example collector", .serialized,
  .enabled(if: Peers.binariesRun, Peers.platformReason))
struct RotelTests {
  static let records = 1200

  /// The agent's encodings and compressions (Rotel's exporter compresses the same way).
  static let variants: [(encoding: OTLPEncoding, gzip: Bool)] = [
    (.protobuf, true), (.protobuf, false), (.json, true), (.json, false),
  ]

  /// Starts `rotel-agent` receiving OTLP/HTTP on `port` and exporting to `collector`.
  ///
  /// A start that ends before it listens (a port taken for a moment by another process on a
  /// busy machine, which the agent's fixed endpoint cannot route around) is tried again, up to
  /// three times, half a second apart; the last failure is thrown with every attempt's log.
  static func rotel(
    _ path: String, port: UInt16, grpcPort: UInt16, collector: Collector, gzip: Bool
  )
    async throws -> PeerProcess
  {
    var logs: [String] = []
    for attempt in 1...3 {
      let rotel = try PeerProcess(
        path,
        [
          "start", "--otlp-http-endpoint", "127.0.0.1:\(port)", "--otlp-grpc-endpoint",
          "127.0.0.1:\(grpcPort)", "--exporter", "otlp", "--otlp-exporter-endpoint",
          collector.baseURL, "--otlp-exporter-protocol", "http", "--otlp-exporter-compression",
          gzip ? "gzip" : "none",
        ])
      do {
        try await Peers.waitUntilListening(port, rotel)
        return rotel
      } catch {
        logs.append("attempt \(attempt): \(error)")
        _ = await rotel.stop(SIGKILL)
        guard attempt < 3 else { break }
        try await Task.sleep(for: .milliseconds(500))
      }
    }
    throw InteropFailure("rotel-agent did not start: " + logs.joined(separator: "\n"))
  }

  @Test(
    "protobuf and JSON, gzip on and off, logs and metrics: sender killed, Rotel restarted",
    arguments: 0..<variants.count)
  func throughRotel(_ variant: Int) async throws {
    let (encoding, gzip) = Self.variants[variant]
    let started = ContinuousClock.now
    let rotelPath = try Peers.rotelAgent()
    let directory = try Peers.scratch("rotel")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Peers.collector(directory)
    let port = try Peers.freePort()
    let grpcPort = try Peers.freePort()
    var rotelLogs = ""
    var rotel = try await Self.rotel(
      rotelPath, port: port, grpcPort: grpcPort, collector: collector, gzip: gzip)
    let agent = PeerProcess.built("stoic-agent")
    let arguments =
      [
        "--spool", directory + "/spool", "--endpoint", "http://127.0.0.1:\(port)", "--logs",
        String(Self.records), "--batch-records", "25", "--metrics-every", "0.1", "--encoding",
        encoding.rawValue,
      ] + (gzip ? [] : ["--no-gzip"])

    // The agent sends; Rotel is stopped and started again on the same port meanwhile; then
    // the agent is SIGKILLed and a new one runs until everything is acknowledged.
    let first = try PeerProcess(agent, arguments)
    // Restart Rotel once records flow through it, kill the agent once they flow again.
    _ = try await Peers.eventually(seconds: 30) { try Peers.sequences(collector).count >= 100 }
    let beforeRestart = try Peers.sequences(collector).count
    let rotelEnded = await rotel.stop(SIGTERM)
    #expect(rotelEnded, "Rotel did not stop on SIGTERM: \(rotel.log)")
    rotelLogs += rotel.log
    rotel = try await Self.rotel(
      rotelPath, port: port, grpcPort: grpcPort, collector: collector, gzip: gzip)
    _ = try await Peers.eventually(seconds: 30) {
      try Peers.sequences(collector).count > beforeRestart
    }
    let beforeKill = try Peers.sequences(collector).count
    await first.stop(SIGKILL)
    #expect(
      first.endedBySignal,
      "the first agent ended before it was killed: \(first.log)")
    let last = try PeerProcess(agent, arguments + ["--exit-when-drained"])
    let status = await last.wait(seconds: 60)
    #expect(status == 0, "the agent did not drain (2: a batch parked): \(last.log)")

    // Rotel batches for about 200 ms: wait for every seq, then stop it (it flushes).
    let arrived = try await Peers.eventually(seconds: 20) {
      try Peers.sequences(collector).count == Self.records
    }
    await rotel.stop(SIGTERM)
    rotelLogs += rotel.log
    let stats = try await Peers.stats(collector)
    let counts = try Peers.sequences(collector)
    let stored = try collector.archive.logRecords()
    let metrics = try collector.archive.metrics()
    try await collector.stop()

    let missing = (0..<Self.records).filter { counts[$0] == nil }
    #expect(arrived && missing.isEmpty, "never arrived: \(missing.prefix(20)) (\(missing.count))")
    #expect(Set(counts.keys).isSubset(of: Set(0..<Self.records)), "seqs never written arrived")
    #expect(stats["rejectedRequests"] as? Int == 0, "the collector refused a request: \(stats)")
    // Besides the agent's records, the spool's own events (labelled `stoic.spool`) arrive.
    #expect(stats["logRecords"] as? Int == stored.count, "\(stats)")
    #expect(metrics.contains { $0.metric.name == "agent.records_written" }, "no agent metrics")
    #expect((stats["dataPoints"] as? Int ?? 0) > 0, "\(stats)")
    // No export error. Rotel's receiver logs a request cut off by the agent's SIGKILL
    // ("error serving connection: hyper::Error(IncompleteMessage)"): that one is expected.
    let cutOff = "error serving connection: hyper::Error(IncompleteMessage)"
    let complaints = rotelLogs.split(separator: "\n").filter {
      ($0.contains("ERROR") || $0.contains("WARN")) && !$0.contains(cutOff)
    }
    #expect(complaints.isEmpty, "Rotel logged:\n\(complaints.joined(separator: "\n"))")
    #expect(!rotelLogs.contains("Exporting failed"), "\(rotelLogs)")
    let cutRequests = rotelLogs.split(separator: "\n").count { $0.contains(cutOff) }
    let duplicates = counts.values.reduce(0) { $0 + $1 - 1 }
    print(
      "interop rotel \(encoding.rawValue) gzip \(gzip ? "on" : "off"): "
        + "\(counts.count)/\(Self.records) seqs (\(beforeRestart) before Rotel's restart, "
        + "\(beforeKill) before the kill), \(duplicates) duplicates, "
        + "\(cutRequests) requests cut off by the kill, "
        + "\(stats["logBatches"] ?? "?") log batches, \(stats["dataPoints"] ?? "?") data points "
        + "in \(stats["metricBatches"] ?? "?") metric batches, \(ContinuousClock.now - started)")
  }
}
