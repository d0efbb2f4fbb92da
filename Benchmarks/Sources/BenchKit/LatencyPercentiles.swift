/// p50 / p99 / p99.9 of per-call latencies, in nanoseconds.
public struct LatencyPercentiles: Sendable {
  /// The median.
  public let p50: Double
  /// The 99th percentile.
  public let p99: Double
  /// The 99.9th percentile.
  public let p999: Double

  /// Percentiles of one run's latencies (nearest rank).
  public init(latencies: [UInt64]) {
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

  /// The three figures given.
  public init(p50: Double, p99: Double, p999: Double) {
    self.p50 = p50
    self.p99 = p99
    self.p999 = p999
  }
}
