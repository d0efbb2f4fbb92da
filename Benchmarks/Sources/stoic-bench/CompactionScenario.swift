import BenchKit
import StoicStore

/// Scenario 5: the journal's sealing and zstd compression of segments, over a generated log
/// corpus (JSON lines of 150 to 400 bytes; see ``LogCorpus``).
///
/// The corpus is appended in batches with ``SyncPolicy/never`` and the default options
/// (8 MiB segments, zstd level 1); every full segment is sealed and compressed by the journal
/// itself (in the background), in the `.zst` format 2: blocks of about 1 MiB of payload whose
/// records carry no per-record header (the block CRC covers them) and are front- and
/// back-coded against the record before them, columns and rests as two zstd frames. Reported: the compression ratio (bytes in / bytes out of the
/// compressed segments), MB/s in of the compression proper (timed through
/// ``TimingFileSystem``, see ``FileSystemProfile``), and MB/s of payload in end to end (all
/// appends until the last sealed segment is compressed).
struct CompactionScenario: Scenario {
  let id = "compaction"

  private struct Run {
    var ratio: Double
    var compressionMBps: Double
    var ingestMBps: Double
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
      scenario: id, metric: "ingest-throughput", unit: "MB/s",
      title:
        "end to end: batched appends, seals and background compression until every sealed "
        + "segment is compressed, MB/s of payload in",
      stoic: Summary(runs.map(\.ingestMBps)))
    return [ratio, speed, seal]
  }

  private func measure(_ lines: [[UInt8]], in directory: String) throws -> Run {
    let profile = FileSystemProfile()
    let tally = CompactionTally()
    let journal = try StoicContender.open(
      directory + "/journal", policy: .never, fileSystem: TimingFileSystem(profile: profile),
      events: tally.sink)
    let batches = stride(from: 0, to: lines.count, by: 256).map {
      Array(lines[$0..<min(lines.count, $0 + 256)])
    }
    let start = MonotonicClock.now()
    for batch in batches { try journal.append(batch: batch) }
    // Sealed segments are compressed in the background: the clock stops once all are done.
    try journal.compressSealedSegments()
    let ingestSeconds = MonotonicClock.seconds(since: start)
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
      ingestMBps: Double(lines.reduce(0) { $0 + $1.count }) / ingestSeconds / 1e6,
      segments: tally.segments)
  }
}
