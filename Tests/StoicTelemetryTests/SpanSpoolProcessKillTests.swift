import Foundation
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// A real process writes spans (the `stoic-telemetry-child` executable with
/// `STOIC_CHILD_SPANS=1`) and is killed with SIGKILL at random moments, a third of its spans
/// left open: after each kill and reopen, every span whose start returned is ended exactly
/// once, by the child when its end returned, else as unfinished; none twice across the runs.
///
/// `STOIC_TELEMETRY_KILLS` sets the number of kills (20 by default); `STOIC_CRASH_SEED` the
/// seed of the moments.
@Suite("SpanSpool survives SIGKILL of a real tracing process")
struct SpanSpoolProcessKillTests {
  typealias Child = LogSpoolProcessKillTests.Child

  /// The acknowledged starts and ends of a run.
  static func acknowledged(_ child: Child) -> (starts: Set<Int>, ends: Set<Int>) {
    let text = (try? String(contentsOfFile: child.acknowledgements, encoding: .utf8)) ?? ""
    var starts = Set<Int>()
    var ends = Set<Int>()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let parts = line.split(separator: " ")
      guard parts.count == 2, let index = Int(parts[1]) else { continue }
      if parts[0] == "s" { starts.insert(index) } else { ends.insert(index) }
    }
    return (starts, ends)
  }

  @Test(
    "SIGKILL at random moments: every started span ends once; every returned end is the child's")
  func killedTracer() throws {
    let kills = EnvironmentValue.integer("STOIC_TELEMETRY_KILLS").map { max($0 / 2, 1) } ?? 20
    var random = SplitMix64(seed: CrashBudget.fromEnvironment().seed)
    try ScratchDirectory.with { scratch in
      let root = scratch + "/spool"
      var acknowledged: [Int: (starts: Set<Int>, ends: Set<Int>)] = [:]
      var killedWhileTracing = 0
      for run in 0..<kills {
        let child = try Child(
          root: root, run: run, scratch: scratch, environment: ["STOIC_CHILD_SPANS": "1"])
        var waited = 0
        while Self.acknowledged(child).starts.isEmpty, child.process.isRunning, waited < 10_000 {
          usleep(1000)
          waited += 1
        }
        usleep(UInt32(random.next() % 20_000))
        let wasRunning = child.process.isRunning
        child.kill()
        #expect(wasRunning, "run \(run): the child stopped by itself")
        let found = Self.acknowledged(child)
        if !found.starts.isEmpty { killedWhileTracing += 1 }
        acknowledged[run] = found
        try Self.check(root: root, acknowledged: acknowledged)
      }
      #expect(killedWhileTracing >= kills / 2, "most kills should land while the child traces")
      let total = acknowledged.values.reduce(0) { $0 + $1.starts.count }
      print("span spool kill test: \(kills) kills, \(total) acknowledged starts, all ended once")
    }
  }

  /// Reopens the spool (which ends the spans the kill cut short) and checks every run so far.
  static func check(
    root: String, acknowledged: [Int: (starts: Set<Int>, ends: Set<Int>)]
  ) throws {
    let spool = try SpoolTestSupport.reopen(at: root)
    defer { try? spool.close() }
    let spans = try #require(spool.spans, "the spool has spans/: it opens its span spool")
    var ends: [SpanID: [SpanEnd]] = [:]
    var unreadable = 0
    try spans.forEachSpanRecord { (_, record) throws(StoreError) in
      switch record {
      case .success(.end(let end)): ends[end.start.spanID, default: []].append(end)
      case .success(.start): break
      case .failure: unreadable += 1
      }
    }
    #expect(unreadable == 0)
    for (spanID, found) in ends where found.count != 1 {
      Issue.record("span \(spanID) ended \(found.count) times")
    }
    for (run, (starts, returned)) in acknowledged {
      for index in starts {
        let spanID = SpanID(UInt64(run) << 32 | UInt64(index + 1))
        let end = ends[spanID]?.first
        #expect(end != nil, "run \(run): span \(index) started and never ended")
        if returned.contains(index) {
          #expect(end?.isUnfinished == false, "run \(run): span \(index)'s end returned, lost")
          #expect(end?.attributes["index"] == .int(Int64(index)))
        }
        if index % 3 == 2 { #expect(end?.isUnfinished == true) }
      }
    }
    #expect(spool.spanDropCounters?.counts.total == 0)
  }
}
