import Foundation
import StoicTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole path with real processes on loopback: `stoic-agent` writes while the collector is
/// down, the collector comes up, the agent is SIGKILLed at random moments and started again
/// (at least 20 times; `STOIC_E2E_KILLS` for more), the collector is killed and restarted
/// too, and at the end every `seq` is at the collector exactly once and the spool is empty.
@Suite("End to end: the agent killed at random moments")
struct AgentKillTests {
  static let records = 3000
  static let kills = max(
    ProcessInfo.processInfo.environment["STOIC_E2E_KILLS"].flatMap { Int($0) } ?? 20, 20)
  static let seed =
    ProcessInfo.processInfo.environment["STOIC_E2E_SEED"].flatMap { UInt64($0) } ?? 0xE2E

  @Test("every seq arrives exactly once after dedupe, and the spool is empty")
  func killedAgent() async throws {
    let directory = try EndToEnd.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let spool = directory + "/spool"
    let data = directory + "/collector"
    var random = SplitMix64(seed: Self.seed)
    // A loopback port for the collector, which is down to begin with.
    let probe = try CollectorProcess(data: data)
    let port = probe.port
    probe.child.stop(SIGTERM)
    let agentArguments = [
      "--spool", spool, "--endpoint", "http://127.0.0.1:\(port)", "--logs",
      String(Self.records), "--batch-records", "40", "--metrics-every", "0.2",
    ]
    var collector: CollectorProcess?
    var killed = 0
    while killed < Self.kills {
      if killed == 3 || killed == Self.kills / 2 {
        // Up for the first time, then killed mid-flight and restarted on the same port.
        collector?.child.stop(SIGKILL)
        collector = try CollectorProcess(data: data, port: port)
      }
      let agent = try ChildProcess("stoic-agent", agentArguments)
      usleep(UInt32.random(in: 30_000...400_000, using: &random))
      let status = agent.stop(SIGKILL)
      #expect(
        agent.process.terminationReason == .uncaughtSignal || status == 0,
        "the agent ended by itself: \(status) \(agent.errors)")
      killed += 1
    }
    let final = try ChildProcess("stoic-agent", agentArguments + ["--exit-when-drained"])
    let status = final.wait(seconds: 180)
    #expect(status == 0, "the last agent run: \(String(describing: status)) \(final.errors)")
    let stats = try await EndToEnd.stats("http://127.0.0.1:\(port)")
    collector?.child.stop(SIGTERM)

    let counts = try EndToEnd.agentSequences(collector: data)
    let missing = (0..<Self.records).filter { counts[$0] == nil }
    let twice = counts.filter { $0.value > 1 }.map(\.key).sorted()
    let unexpected = counts.keys.filter { $0 < 0 || $0 >= Self.records }
    #expect(missing.isEmpty, "seqs never delivered: \(missing.prefix(20)) (\(missing.count))")
    #expect(twice.isEmpty, "seqs delivered twice: \(twice.prefix(20))")
    #expect(unexpected.isEmpty, "seqs never written: \(unexpected.prefix(20))")
    let state = try await EndToEnd.spoolState(spool)
    #expect(state.empty && state.pending == 0 && state.parked.isEmpty, "\(state)")
    print(
      "end to end: \(killed) kills, \(counts.count) seqs once each, "
        + "duplicates suppressed by the collector since its last start: "
        + "\(stats["duplicatesSuppressed"] ?? "?")")
  }
}
