import Foundation
import StoicForwarding
import StoicStore
import Testing

@testable import StoicCollector

/// A sender that retries through injected failures, dropped requests, dropped responses and
/// a SIGKILL and restart of the collector: every record arrives exactly once.
@Suite("Exactly once through faults", .serialized)
struct CollectorEndToEndTests {
  @Test("every seq stored exactly once through faults and a collector restart")
  func exactlyOnce() async throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let faults = [
      "--failure-rate", "0.2", "--drop-request-rate", "0.1", "--drop-response-rate", "0.25",
      "--seed", "5",
    ]
    var collector = try CollectorProcess(dataDirectory: directory, arguments: faults)
    let batches = 40
    let perBatch = 25
    var attempts = 0
    var outcomes: [String: Int] = [:]
    for batch in 0..<batches {
      if batch == batches / 2 {
        // Mid-run: the collector dies without warning and comes back on a new port.
        collector.killHard()
        collector = try CollectorProcess(dataDirectory: directory, arguments: faults)
      }
      let encoding: OTLPEncoding = batch.isMultiple(of: 3) ? .json : .protobuf
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(
          endpoint: collector.baseURL, encoding: encoding, timeout: .seconds(5)))
      let request = CollectorSamples.logs(
        (batch * perBatch)..<((batch + 1) * perBatch), instance: "sender-\(batch % 2)")
      var delivered = false
      // A bounded retry loop, as the outbox would run it (without its waits).
      for _ in 0..<50 {
        attempts += 1
        let response = try await exporter.export(request, idempotencyKey: "e2e-\(batch)")
        switch FailureClassifier.standard.classify(response, nowMilliseconds: 0) {
        case .delivered:
          delivered = true
        case .transient(let reason, _):
          outcomes[reason, default: 0] += 1
        case .permanent(let reason), .halt(let reason):
          Issue.record("batch \(batch) refused: \(reason)")
          delivered = true
        }
        if delivered { break }
      }
      #expect(delivered, "batch \(batch) was never delivered")
    }
    let stats = try collector.stats()
    #expect(collector.terminate() == 0)
    let archive = try CollectorArchive.open(directory: directory)
    defer { try? archive.close() }
    let seqs = try archive.logRecords().compactMap { CollectorSamples.seq(of: $0.record) }
    #expect(seqs.count == batches * perBatch, "no record stored twice")
    #expect(seqs.sorted() == Array(0..<(batches * perBatch)), "every record stored")
    // The faults did happen: failures and drops were retried, and replays were suppressed.
    #expect(attempts > batches)
    #expect(outcomes.keys.contains("HTTP 503"))
    #expect(outcomes.keys.contains { $0.hasPrefix("network error") })
    #expect((stats["duplicatesSuppressed"] as? Int ?? 0) > 0)
    #expect(archive.stats.batches == batches)
  }
}
