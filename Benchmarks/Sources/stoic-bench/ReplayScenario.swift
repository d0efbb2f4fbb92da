import BenchKit
import StoicStore

/// Scenario 4: open and full replay of a journal of a given size, page cache warm.
///
/// The journal is written from 200-byte log records with the default options (8 MiB segments,
/// sealed segments zstd-compressed), and once more with sealed segments left uncompressed, to
/// separate the cost of decompression from the cost of the frame scan. Each journal is replayed
/// in its own child process so that its peak resident memory is its own.
struct ReplayScenario: Scenario {
  let label: String
  let payloadBytes: Int

  var id: String { "replay-" + label }

  func run(in context: BenchContext) throws -> [BenchResult] {
    let workload = Workload(
      payloads: LogCorpus.records(count: 16_384, size: 200), count: payloadBytes / 200)
    return [
      try measure(workload, compress: true, in: context),
      try measure(workload, compress: false, in: context),
    ]
  }

  private func measure(_ workload: Workload, compress: Bool, in context: BenchContext) throws
    -> BenchResult
  {
    let directory = try context.makeDirectory(id)
    defer { context.remove(directory) }
    let journalDirectory = directory + "/journal"
    let variant = compress ? "sealed segments compressed (default)" : "sealed segments raw"
    context.progress("\(id): writing \(workload.count) records, \(variant)")
    let journal = try StoicContender.open(journalDirectory, policy: .never, compress: compress)
    try StoicContender.fill(journal, with: workload)
    try journal.compressSealedSegments()
    try journal.close()
    context.progress("\(id): replaying in a child process")
    let report = try ReplayLauncher.replay(directory: journalDirectory, runs: context.runs)
    guard report.records == workload.count else {
      throw BenchError("\(id): replayed \(report.records) records, wrote \(workload.count)")
    }
    var result = BenchResult(
      scenario: id, metric: compress ? "replay" : "replay-uncompressed", unit: "GB/s",
      title: "open + full replay of \(Format.bytes(report.payloadBytes)) of payload "
        + "(\(report.records) records of 200 B), \(variant), page cache warm",
      stoic: Summary(report.seconds.map { Double(report.payloadBytes) / $0 / 1e9 }))
    result.peakRSSBytes = Summary([Double(report.peakRSSBytes)])
    result.notes = [
      "peak RSS of the replaying process \(Format.bytes(report.peakRSSBytes)); "
        + "open scan buffer \(Format.bytes(report.peakBufferBytes))"
    ]
    if compress {
      result.targets = [
        TargetCheck(
          label: "stoic ≥ 1 GB/s", value: result.stoic.median, threshold: 1,
          comparison: .atLeast, unit: " GB/s")
      ]
    }
    return result
  }

  /// The three sizes of the issue.
  static let all = [
    ReplayScenario(label: "10MiB", payloadBytes: 10 << 20),
    ReplayScenario(label: "100MiB", payloadBytes: 100 << 20),
    ReplayScenario(label: "1GiB", payloadBytes: 1 << 30),
  ]

  /// The memory target across sizes: peak RSS (default options) the same within 16 MiB.
  /// Added to the last such replay result when more than one size ran.
  static func memoryCheck(_ results: inout [BenchResult]) {
    let indices = results.indices.filter {
      results[$0].scenario.hasPrefix("replay-") && results[$0].metric == "replay"
    }
    let peaks = indices.compactMap { results[$0].peakRSSBytes?.max }
    guard peaks.count > 1, let last = indices.last, let low = peaks.min(), let high = peaks.max()
    else { return }
    results[last].targets.append(
      TargetCheck(
        label: "peak RSS spread over \(peaks.count) sizes ≤ 16 MiB",
        value: (high - low) / 1_048_576, threshold: 16, comparison: .atMost, unit: " MiB"))
  }
}
