import StoicStore

/// Scenario 6: append throughput (one thread, ``SyncPolicy/never``, one append per 200-byte
/// record) into a journal holding an unacknowledged backlog, against a new empty journal. The
/// time to open each journal is reported too.
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
    try filling.close()
    var appends: [String: [Double]] = [:]
    var opens: [String: [Double]] = [:]
    for run in 1...context.runs {
      context.progress("backlog run \(run)/\(context.runs)")
      for (name, path) in [("stoic", backlogDirectory), ("empty-spool", directory + "/empty")] {
        if name == "empty-spool" { context.remove(path) }
        let start = MonotonicClock.now()
        let journal = try StoicContender.open(path, policy: .never)
        opens[name, default: []].append(MonotonicClock.seconds(since: start))
        let sample = try StoicContender.appendPerRecord(workload, to: journal)
        appends[name, default: []].append(sample.recordsPerSecond)
        try journal.close()
      }
    }
    var throughput = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "append \(workload.count) records of 200 B with \(Format.bytes(backlogBytes)) "
        + "of unacknowledged backlog, vs an empty journal",
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
}
