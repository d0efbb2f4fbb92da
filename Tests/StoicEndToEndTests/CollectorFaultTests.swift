import Foundation
import Testing

/// The agent against a collector that misbehaves on purpose, with real processes on loopback.
@Suite("End to end: faults at the collector")
struct CollectorFaultTests {
  static let records = 200

  /// Runs the agent (`--exit-when-drained`) against a collector started with `faults`; its exit
  /// status and errors, the collector's stats, the counts of each `seq` and the spool's state.
  static func run(_ faults: [String]) async throws -> (
    status: Int32?, errors: String, stats: [String: Any], counts: [Int: Int],
    spool: (empty: Bool, pending: Int, parked: Int), directory: String
  ) {
    let directory = try EndToEnd.scratch()
    let collector = try CollectorProcess(data: directory + "/collector", faults)
    let agent = try ChildProcess(
      "stoic-agent",
      [
        "--spool", directory + "/spool", "--endpoint", collector.endpoint, "--logs",
        String(records), "--batch-records", "50", "--exit-when-drained",
      ])
    let status = agent.wait(seconds: 120)
    let stats = try await EndToEnd.stats(collector.endpoint)
    collector.child.stop(SIGTERM)
    let counts = try EndToEnd.agentSequences(collector: directory + "/collector")
    let state = try await EndToEnd.spoolState(directory + "/spool")
    return (
      status, agent.errors, stats, counts, (state.empty, state.pending, state.parked.count),
      directory
    )
  }

  @Test("503 with Retry-After, then 200: delivered after the wait, once")
  func retryAfter() async throws {
    let run = try await Self.run([
      "--fail-first", "1", "--fail-status", "503", "--retry-after", "1",
    ])
    defer { try? FileManager.default.removeItem(atPath: run.directory) }
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.stats["faultsInjected"] as? Int == 1)
    #expect(run.counts.keys.sorted() == Array(0..<Self.records))
    #expect(run.counts.values.allSatisfy { $0 == 1 })
    #expect(run.spool.empty && run.spool.pending == 0)
  }

  @Test("400 on one batch: parked and shown by stoic inspect, the rest delivered")
  func parked() async throws {
    let run = try await Self.run(["--fail-first", "1", "--fail-status", "400"])
    defer { try? FileManager.default.removeItem(atPath: run.directory) }
    #expect(run.status == 2, "\(run.errors)")
    #expect(run.errors.contains("parked"))
    #expect(run.spool.parked == 1 && run.spool.pending == 0)
    // The batch the collector received first (one of the four sent at once, 50 records) is
    // parked; every other record arrived once.
    let missing = Set(0..<Self.records).subtracting(run.counts.keys).sorted()
    #expect(missing.count == 50 && missing.first.map { $0 % 50 == 0 } == true)
    #expect(missing == missing.first.map { Array($0..<($0 + 50)) })
    #expect(run.counts.values.allSatisfy { $0 == 1 })
    let inspect = try ChildProcess("stoic", ["inspect", run.directory + "/spool/forwarding"])
    #expect(inspect.wait(seconds: 60) == 0, "\(inspect.errors)")
    #expect(inspect.output.contains("1 parked"), "\(inspect.output)")
    #expect(inspect.output.contains("HTTP 400"), "\(inspect.output)")
  }

  @Test("a response dropped after the collector stored the batch: resent, suppressed")
  func droppedResponse() async throws {
    let run = try await Self.run(["--drop-first-responses", "1"])
    defer { try? FileManager.default.removeItem(atPath: run.directory) }
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.stats["duplicatesSuppressed"] as? Int == 1)
    #expect(run.counts.keys.sorted() == Array(0..<Self.records))
    #expect(run.counts.values.allSatisfy { $0 == 1 })
    #expect(run.spool.empty && run.spool.pending == 0)
  }
}
