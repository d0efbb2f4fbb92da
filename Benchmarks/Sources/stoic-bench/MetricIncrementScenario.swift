import StoicTelemetry
import Synchronization

/// A counter increment and a histogram recording of the telemetry spool, from one and two
/// threads on the same series, in nanoseconds per operation (wall time ÷ operations per
/// thread); the floor: a plain relaxed atomic add on one shared counter.
struct MetricIncrementScenario: Scenario {
  let id = "metric-increment"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let operations = context.quick ? 1_000_000 : 5_000_000
    var results: [BenchResult] = []
    let swiftOTel = SwiftOTelPeer.locate()
    for threads in [1, 2] {
      var swiftOTelRuns: [String: [Double]] = [:]
      var counter: [Double] = []
      var histogram: [Double] = []
      var floor: [Double] = []
      for run in 1...context.runs {
        context.progress("metric-increment, \(threads) threads, run \(run)/\(context.runs)")
        try context.inFreshDirectory(id) { directory in
          let spool = try TelemetrySpool.open(at: directory + "/spool")
          let series = spool.metrics.counter(label: "bench.requests", dimensions: [("a", "b")])
          let timer = spool.metrics.histogram(label: "bench.latency", dimensions: [("a", "b")])
          let perOperation = { (seconds: Double) in seconds * 1e9 / Double(operations) }
          counter.append(
            perOperation(
              try ParallelRun.seconds(threads: threads) { _ in
                for _ in 0..<operations { series.increment() }
              }))
          histogram.append(
            perOperation(
              try ParallelRun.seconds(threads: threads) { thread in
                for index in 0..<operations { timer.record(Double((index &+ thread) & 1023)) }
              }))
          let shared = Atomic<Int>(0)
          floor.append(
            perOperation(
              try ParallelRun.seconds(threads: threads) { _ in
                for _ in 0..<operations { shared.wrappingAdd(1, ordering: .relaxed) }
              }))
          try spool.close()
          for (configuration, name) in SwiftOTelPeer.configurations where threads == 1 {
            guard let swiftOTel else { continue }
            let timing = try swiftOTel.time(
              "metric-increment", configuration: configuration, count: operations, in: directory)
            swiftOTelRuns[name, default: []].append(1e9 / timing.perSecond)
          }
        }
      }
      let peer = BenchResult.Peer(name: "atomic-add", summary: Summary(floor))
      let title =
        "\(threads) thread\(threads == 1 ? "" : "s") on one series, \(operations) "
        + "operations per thread, ns per operation (lower is better)"
      var increment = BenchResult(
        scenario: id, metric: "counter-\(threads)-thread", unit: "ns/op",
        title: "counter increment, " + title, stoic: Summary(counter))
      increment.peers =
        [peer]
        + SwiftOTelPeer.configurations.compactMap { _, name in
          swiftOTelRuns[name].map { BenchResult.Peer(name: name, summary: Summary($0)) }
        }
      if threads == 1 {
        increment.notes.append(
          swiftOTel == nil
            ? SwiftOTelPeer.buildHint
            : "swift-otel: a Counter of swift-metrics over OTel.bootstrap's metrics backend (its "
              + "defaults; tuned changes nothing for metrics), one thread")
      }
      increment.targets = [
        TargetCheck(
          label: "counter ≤ 3× atomic-add, \(threads) thread(s)",
          value: increment.stoic.median / peer.summary.median, threshold: 3,
          comparison: .atMost, unit: "×")
      ]
      if threads == 1 {
        increment.targets.insert(
          TargetCheck(
            label: "counter ≤ 50 ns median, one thread", value: increment.stoic.median,
            threshold: 50, comparison: .atMost, unit: " ns"), at: 0)
      }
      var recording = BenchResult(
        scenario: id, metric: "histogram-\(threads)-thread", unit: "ns/op",
        title: "histogram record (default bounds), " + title, stoic: Summary(histogram))
      recording.peers = [peer]
      results += [increment, recording]
    }
    return results
  }
}
