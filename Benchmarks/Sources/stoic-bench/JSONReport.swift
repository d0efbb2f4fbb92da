import Foundation

/// The `--json` output: `{"machine": {...}, "commit": "...", "results": [...]}` with one
/// object per result as the benchmark issue specifies.
struct JSONReport: Encodable {
  /// A target with its verdict.
  struct Target: Encodable {
    let label: String
    let value: Double
    let threshold: Double
    let passed: Bool
  }

  struct Result: Encodable {
    let scenario: String
    let metric: String
    let unit: String
    let stoic: Double
    let peers: [String: Double]
    let runs: Int
    let p50: Double?
    let p99: Double?
    let p999: Double?
    let peakRSSBytes: Double?
    let targets: [Target]
    let notes: [String]

    enum CodingKeys: String, CodingKey {
      case scenario, metric, unit, stoic, peers, runs, p50, p99, p999, targets, notes
      case peakRSSBytes = "peak_rss_bytes"
    }

    init(_ result: BenchResult) {
      scenario = result.scenario
      metric = result.metric
      unit = result.unit
      stoic = result.stoic.median
      peers = Dictionary(
        result.peers.map { ($0.name, $0.summary.median) }, uniquingKeysWith: { first, _ in first })
      runs = result.stoic.count
      p50 = result.latency?.p50
      p99 = result.latency?.p99
      p999 = result.latency?.p999
      peakRSSBytes = result.peakRSSBytes?.max
      targets = result.targets.map {
        Target(label: $0.label, value: $0.value, threshold: $0.threshold, passed: $0.passed)
      }
      notes = result.notes
    }
  }

  let machine: Machine
  let commit: String
  let results: [Result]

  init(machine: Machine, commit: String, results: [BenchResult]) {
    self.machine = machine
    self.commit = commit
    self.results = results.map(Result.init)
  }

  func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // A figure that could not be measured (a peer skipped) is NaN: written as a string.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
