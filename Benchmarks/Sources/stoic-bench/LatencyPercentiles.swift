/// p50 / p99 / p99.9 of per-call latencies, in nanoseconds.
struct LatencyPercentiles {
  let p50: Double
  let p99: Double
  let p999: Double

  /// Percentiles of one run's latencies (nearest rank).
  init(latencies: [UInt64]) {
    let sorted = latencies.sorted()
    func rank(_ fraction: Double) -> Double {
      guard !sorted.isEmpty else { return .nan }
      let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
      return Double(sorted[Swift.max(0, Swift.min(sorted.count - 1, index))])
    }
    p50 = rank(0.50)
    p99 = rank(0.99)
    p999 = rank(0.999)
  }

  init(p50: Double, p99: Double, p999: Double) {
    self.p50 = p50
    self.p99 = p99
    self.p999 = p999
  }

  /// The median of each percentile over several runs.
  static func median(of runs: [LatencyPercentiles]) -> LatencyPercentiles {
    LatencyPercentiles(
      p50: Summary(runs.map(\.p50)).median, p99: Summary(runs.map(\.p99)).median,
      p999: Summary(runs.map(\.p999)).median)
  }
}
