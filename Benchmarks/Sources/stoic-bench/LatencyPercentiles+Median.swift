import BenchKit

extension LatencyPercentiles {
  /// The median of each percentile over several runs.
  static func median(of runs: [LatencyPercentiles]) -> LatencyPercentiles {
    LatencyPercentiles(
      p50: Summary(runs.map(\.p50)).median, p99: Summary(runs.map(\.p99)).median,
      p999: Summary(runs.map(\.p999)).median)
  }
}
