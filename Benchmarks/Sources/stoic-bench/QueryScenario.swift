import BenchKit
import StoicStore
import StoicTelemetry

/// `stoic query --level error --since … --until …`: one hour of error records out of a spool
/// of two days (64 MiB by default in 1 MiB segments, 1 GiB in the spool's 8 MiB segments with
/// `--large`). The first run builds the segment summaries as it reads, the second uses them;
/// both against a brute force that decodes every record. All read from the page cache (the
/// spool was just written).
struct QueryScenario: Scenario {
  let id = "query"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let bytes = context.large ? 1 << 30 : 64 << 20
    let segmentSize: UInt64 = context.large ? 8 << 20 : 1 << 20
    let directory = try context.makeDirectory(id)
    defer { context.remove(directory) }
    context.progress("query: writing a spool of \(Format.bytes(bytes))")
    let spool = try QuerySpool.make(
      at: directory + "/spool", bytes: bytes, segmentSize: segmentSize)
    let query = LogQuery(
      minimumLevel: .error, since: QuerySpool.start + 24 * QuerySpool.hour,
      until: QuerySpool.start + 25 * QuerySpool.hour)
    let summaryDirectory = SegmentSummaryStore.directory(ofSpool: spool.root)
    var seconds: [String: [Double]] = [:]
    var skipped: [String: [Double]] = [:]
    var segments = 0
    for run in 1...context.runs {
      context.progress("query run \(run)/\(context.runs)")
      context.remove(summaryDirectory)
      let summaries = SegmentSummaryStore(directory: summaryDirectory)
      let expected = try timed(&seconds, "brute-force") { try spool.bruteForce(query) }
      for name in ["first-run", "second-run"] {
        let statistics = try timed(&seconds, name) {
          try query.run(spoolAt: spool.root, summaries: summaries) { _ in true }
        }
        guard statistics.matched == expected else {
          throw BenchError(
            "query \(name): \(statistics.matched) records matched, brute force \(expected)")
        }
        skipped[name, default: []].append(statistics.skippedFraction)
        segments = statistics.segments
      }
    }
    return results(spool, seconds: seconds, skipped: skipped, segments: segments)
  }

  /// Runs `body`, adding its duration in seconds to `seconds[name]`.
  private func timed<Value>(
    _ seconds: inout [String: [Double]], _ name: String, _ body: () throws -> Value
  ) throws -> Value {
    let start = MonotonicClock.now()
    let value = try body()
    seconds[name, default: []].append(MonotonicClock.seconds(since: start))
    return value
  }

  private func results(
    _ spool: QuerySpool, seconds: [String: [Double]], skipped: [String: [Double]],
    segments: Int
  ) -> [BenchResult] {
    let second = Summary(seconds["second-run"] ?? [])
    let skippedSecond = Summary(skipped["second-run"] ?? []).median
    var time = BenchResult(
      scenario: id, metric: "seconds", unit: "s",
      title: "--level error, one hour of two days, from a spool of "
        + "\(Format.bytes(spool.bytes)) (\(Format.count(spool.records)) records, \(segments) "
        + "segments, sealed ones compressed); stoic = second run (summaries used); 1 GiB with "
        + "--large",
      stoic: second)
    time.peers = [
      .init(name: "first-run", summary: Summary(seconds["first-run"] ?? [])),
      .init(name: "brute-force", summary: Summary(seconds["brute-force"] ?? [])),
    ]
    // The spool's records in the segments that were read, per second.
    let scanned = Double(spool.bytes) * (1 - skippedSecond) / second.median / 1e9
    time.targets = [
      TargetCheck(
        label: "segments read scanned at ≥ 1 GB/s (uncompressed records)", value: scanned,
        threshold: 1, comparison: .atLeast, unit: " GB/s")
    ]
    var skip = BenchResult(
      scenario: id, metric: "segments-skipped", unit: "fraction",
      title: "fraction of segments skipped; stoic = second run, first-run builds the summaries",
      stoic: Summary(skipped["second-run"] ?? []))
    skip.peers = [.init(name: "first-run", summary: Summary(skipped["first-run"] ?? []))]
    skip.targets = [
      TargetCheck(
        label: "≥ 90 % of segments skipped", value: skippedSecond, threshold: 0.9,
        comparison: .atLeast, unit: "")
    ]
    return [time, skip]
  }
}
