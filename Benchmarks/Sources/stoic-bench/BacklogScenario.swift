import BenchKit
import Foundation
import StoicStore

/// Scenario 6: append throughput (one thread, ``SyncPolicy/never``, one append per 200-byte
/// record) into a journal holding an unacknowledged backlog, against a new empty journal. The
/// time to open each journal is reported too.
///
/// Before its measured appends, the new journal is filled (untimed) until its active segment is
/// as full as the backlog journal's, so both seal and compress segments at the same points:
/// otherwise one roll more or less (tens of milliseconds) would decide the comparison.
struct BacklogScenario: Scenario {
  let id = "backlog"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let backlogBytes = context.quick ? 128 << 20 : 1 << 30
    let payloads = LogCorpus.records(count: 16_384, size: 200)
    let workload = Workload(payloads: payloads, count: context.quick ? 100_000 : 400_000)
    let directory = try context.makeDirectory(id)
    defer { context.remove(directory) }
    let backlogDirectory = directory + "/backlog"
    context.progress("backlog: writing \(Format.bytes(backlogBytes)) of backlog")
    let filling = try StoicContender.open(backlogDirectory, policy: .never)
    try StoicContender.fill(
      filling, with: Workload(payloads: payloads, count: backlogBytes / 200))
    try filling.compressSealedSegments()
    try filling.close()
    var appends: [String: [Double]] = [:]
    var opens: [String: [Double]] = [:]
    for run in 1...context.runs {
      context.progress("backlog run \(run)/\(context.runs)")
      // Both journals start with their active segment equally full, so both roll (and seal and
      // compress) at the same points of the measured appends.
      let phase = try activeSegmentBytes(backlogDirectory) / 216
      for (name, path) in [("stoic", backlogDirectory), ("empty-spool", directory + "/empty")] {
        if name == "empty-spool" { context.remove(path) }
        let start = MonotonicClock.now()
        let journal = try StoicContender.open(path, policy: .never)
        opens[name, default: []].append(MonotonicClock.seconds(since: start))
        if name == "empty-spool" {
          try StoicContender.fill(journal, with: Workload(payloads: payloads, count: phase))
        }
        let sample = try StoicContender.appendPerRecord(workload, to: journal)
        appends[name, default: []].append(sample.recordsPerSecond)
        // Untimed: finish the background compression so the next run starts from the same state.
        try journal.compressSealedSegments()
        try journal.close()
      }
    }
    var throughput = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "append \(workload.count) records of 200 B with \(Format.bytes(backlogBytes)) "
        + "of unacknowledged backlog, vs a new journal (its active segment filled untimed to "
        + "the same point, so both roll at the same records)",
      stoic: Summary(appends["stoic"] ?? []))
    throughput.peers = [.init(name: "empty-spool", summary: Summary(appends["empty-spool"] ?? []))]
    throughput.targets = [
      .ratio(
        throughput.stoic.median, over: throughput.peerMedian("empty-spool") ?? .nan,
        atLeast: 0.9, label: "stoic ≥ 0.9× empty-spool")
    ]
    var open = BenchResult(
      scenario: id, metric: "open-time", unit: "s",
      title: "open of the journal with the backlog, vs an empty journal",
      stoic: Summary(opens["stoic"] ?? []))
    open.peers = [.init(name: "empty-spool", summary: Summary(opens["empty-spool"] ?? []))]
    return [throughput, open]
  }

  /// The size of the active segment (the `.log` with the highest first sequence).
  private func activeSegmentBytes(_ directory: String) throws -> Int {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    guard let active = names.filter({ $0.hasPrefix("journal-") && $0.hasSuffix(".log") }).max()
    else { return 0 }
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + active)
    return (attributes[.size] as? Int) ?? 0
  }
}
