import BenchKit

/// One figure of a scenario: Stoic and its peers, each summarised over repeated runs, with the
/// issue's targets checked against the medians.
struct BenchResult {
  /// A peer's figure.
  struct Peer {
    let name: String
    let summary: Summary
  }

  let scenario: String
  let metric: String
  let unit: String
  /// What was measured, in words (printed above the table).
  let title: String
  let stoic: Summary
  var peers: [Peer] = []
  /// Per-call latency of Stoic (medians over runs of each run's percentile).
  var latency: LatencyPercentiles? = nil
  /// Peak resident memory of the process that replayed (replay scenarios).
  var peakRSSBytes: Summary? = nil
  var targets: [TargetCheck] = []
  /// Figures printed for context, not targets.
  var notes: [String] = []

  /// The median of the named peer, if it was measured.
  func peerMedian(_ name: String) -> Double? {
    peers.first { $0.name == name }?.summary.median
  }
}
