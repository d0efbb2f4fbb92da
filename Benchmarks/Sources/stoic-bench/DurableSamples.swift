import BenchKit

/// What repeated runs of Stoic's durable appenders measured, turned into the three figures of
/// the concurrent-durable targets.
struct DurableSamples {
  var throughput: [Double] = []
  var recordsPerSync: [Double] = []
  var latencies: [LatencyPercentiles] = []

  mutating func add(_ run: DurableRun) {
    throughput.append(Double(run.records) / run.seconds)
    recordsPerSync.append(Double(run.records) / Double(max(1, run.syncs)))
    latencies.append(LatencyPercentiles(latencies: run.latencies))
  }

  /// Throughput against the peers, records per sync, and p99 latency against the median
  /// `fdatasync` of the same runs, each with its target.
  func results(
    scenario: String, threads: Int, label: String, metricSuffix: String, title: String,
    peers: [BenchResult.Peer], fdatasync runs: [LatencyPercentiles]
  ) -> [BenchResult] {
    var rate = BenchResult(
      scenario: scenario, metric: "throughput" + metricSuffix, unit: "records/s", title: title,
      stoic: Summary(throughput))
    rate.peers = peers
    if let sqlite = rate.peerMedian("sqlite-full") {
      rate.targets = [
        .ratio(
          rate.stoic.median, over: sqlite, atLeast: 0.5 * Double(threads),
          label: "\(label) ≥ 0.5 × \(threads) × sqlite-full")
      ]
    }
    var grouping = BenchResult(
      scenario: scenario, metric: "records-per-sync" + metricSuffix, unit: "records/sync",
      title: title, stoic: Summary(recordsPerSync))
    grouping.targets = [
      TargetCheck(
        label: "\(label) records per sync ≥ 0.9 × \(threads)", value: grouping.stoic.median,
        threshold: 0.9 * Double(threads), comparison: .atLeast, unit: "")
    ]
    let percentiles = LatencyPercentiles.median(of: latencies)
    let fdatasync = Summary(runs.map(\.p50))
    let fdatasyncTail = LatencyPercentiles.median(of: runs)
    var latency = BenchResult(
      scenario: scenario, metric: "latency" + metricSuffix, unit: "ns", title: title,
      stoic: Summary(latencies.map(\.p99)))
    latency.latency = percentiles
    latency.peers = [.init(name: "fdatasync-median", summary: fdatasync)]
    latency.notes = [
      "stoic figure: p99 latency of a durable append, per run; fdatasync-median: the median "
        + "fdatasync of a 200-byte append, per run",
      "fdatasync in the same runs: p50 \(Format.number(fdatasyncTail.p50)) ns, p99 "
        + "\(Format.number(fdatasyncTail.p99)) ns, p999 \(Format.number(fdatasyncTail.p999)) ns",
    ]
    latency.targets = [
      TargetCheck(
        label: "\(label) p99 ≤ 3 × median fdatasync",
        value: percentiles.p99 / fdatasync.median, threshold: 3, comparison: .atMost, unit: "×")
    ]
    return [rate, grouping, latency]
  }
}
