import StoicStore

/// Scenario 5: the journal's sealing and zstd compression of segments, over a generated log
/// corpus (JSON lines of 150 to 400 bytes; see ``LogCorpus``).
///
/// The corpus is appended in batches with ``SyncPolicy/never`` and the default options
/// (8 MiB segments, zstd level 3); every full segment is sealed and compressed by the journal
/// itself. Reported: the compression ratio (bytes in / bytes out of the compressed segments),
/// MB/s in of the compression proper (timed through ``TimingFileSystem``, see ``FileSystemProfile``), and MB/s in of the
/// whole seal (the append calls that rolled a segment: syncs, compression, renames).
struct CompactionScenario: Scenario {
  let id = "compaction"

  private struct Run {
    var ratio: Double
    var compressionMBps: Double
    var sealMBps: Double
    var segments: Int
  }

  func run(in context: BenchContext) throws -> [BenchResult] {
    let corpusBytes = context.quick ? 24 << 20 : 72 << 20
    let lines = LogCorpus.lines(totalBytes: corpusBytes)
    var runs: [Run] = []
    for run in 1...context.runs {
      context.progress("compaction run \(run)/\(context.runs)")
      runs.append(try context.inFreshDirectory(id) { try measure(lines, in: $0) })
    }
    let title =
      "seal + zstd compression of \(Format.bytes(corpusBytes)) of generated log lines "
      + "(\(lines.count) records, \(runs.first?.segments ?? 0) segments sealed per run)"
    var ratio = BenchResult(
      scenario: id, metric: "ratio", unit: "x", title: title, stoic: Summary(runs.map(\.ratio)))
    ratio.targets = [
      TargetCheck(
        label: "ratio ≥ 5×", value: ratio.stoic.median, threshold: 5, comparison: .atLeast,
        unit: "×")
    ]
    var speed = BenchResult(
      scenario: id, metric: "compression-throughput", unit: "MB/s",
      title: "compression proper, MB/s of record frames in",
      stoic: Summary(runs.map(\.compressionMBps)))
    speed.targets = [
      TargetCheck(
        label: "stoic ≥ 200 MB/s in", value: speed.stoic.median, threshold: 200,
        comparison: .atLeast, unit: " MB/s")
    ]
    speed.notes = CompactionReference.notes(lines: lines)
    let seal = BenchResult(
      scenario: id, metric: "seal-throughput", unit: "MB/s",
      title: "whole seal (sync, new segment, compression, renames, directory syncs), MB/s in",
      stoic: Summary(runs.map(\.sealMBps)))
    return [ratio, speed, seal]
  }

  private func measure(_ lines: [[UInt8]], in directory: String) throws -> Run {
    let profile = FileSystemProfile()
    let tally = CompactionTally()
    let journal = try StoicContender.open(
      directory + "/journal", policy: .never, fileSystem: TimingFileSystem(profile: profile),
      events: tally.sink)
    var sealSeconds = 0.0
    var index = 0
    while index < lines.count {
      let end = min(lines.count, index + 256)
      let batch = Array(lines[index..<end])
      let before = tally.segments
      let start = MonotonicClock.now()
      try journal.append(batch: batch)
      if tally.segments != before { sealSeconds += MonotonicClock.seconds(since: start) }
      index = end
    }
    try journal.close()
    let totals = profile.totals
    let compressionSeconds = totals.seconds[.compression] ?? 0
    let timedSegments = totals.calls[.compression] ?? 0
    guard tally.segments > 0, timedSegments == tally.segments else {
      throw BenchError("compaction: \(tally.segments) segments compacted, \(timedSegments) timed")
    }
    let input = Double(tally.inputBytes)
    return Run(
      ratio: input / Double(tally.outputBytes),
      compressionMBps: input / compressionSeconds / 1e6,
      sealMBps: input / sealSeconds / 1e6,
      segments: tally.segments)
  }
}
