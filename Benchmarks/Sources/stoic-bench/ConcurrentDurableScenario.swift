import BenchKit
import StoicStore

/// Scenario 3: T threads, each waiting for its own record to be durable before it appends the
/// next, with T = 2, 16 and 64.
///
/// A sync can cover at most the records that are waiting, so the targets are those a perfect
/// group commit reaches: every waiting appender shares the next sync (records per sync ≥ 0.9 × T),
/// throughput ≥ 0.5 × T × SQLite's (WAL, `synchronous=FULL`, the same T threads each committing
/// its own row; SQLite serialises its writers and syncs each commit), and a durable append's
/// p99 latency ≤ 3 × the median `fdatasync` of a record measured in the same run.
///
/// Stoic runs ``SyncPolicy/groupCommit(maxDelay:maxRecords:)`` with 10 ms / 1,000 records and,
/// as a second figure, ``SyncPolicy/always``. Peers: `sqlite-full` and `write-fsync` (`write` +
/// `fsync` per record from the same T threads on one `O_APPEND` file).
struct ConcurrentDurableScenario: Scenario {
  let id = "concurrent-durable"
  /// The thread counts measured.
  let threadCounts = [2, 16, 64]

  /// Stoic's policies, each with the label and metric suffix its figures carry.
  private static let policies: [(policy: SyncPolicy, label: String, suffix: String)] = [
    (.groupCommit(maxDelay: .milliseconds(10), maxRecords: 1_000), "group commit 10 ms", ""),
    (.always, "always", "-always"),
  ]

  func run(in context: BenchContext) throws -> [BenchResult] {
    try threadCounts.flatMap { threads in try run(threads: threads, in: context) }
  }

  private func run(threads: Int, in context: BenchContext) throws -> [BenchResult] {
    // Enough records per thread that the p99 is not the first and last rounds (where the
    // threads start together and finish one by one); fewer for the peers, whose rate is flat.
    let perThreadCount = max(context.quick ? 10 : 50, (context.quick ? 320 : 800) / threads)
    let payloads = LogCorpus.records(count: 4096, size: 200)
    let perThread = Workload(payloads: payloads, count: perThreadCount)
    let peerPerThread = Workload(
      payloads: payloads, count: max(10, (context.quick ? 160 : 400) / threads))
    var stoic = Array(repeating: DurableSamples(), count: Self.policies.count)
    var sqlite: [Double] = []
    var writeFsync: [Double] = []
    var fdatasync: [LatencyPercentiles] = []
    for run in 1...context.runs {
      context.progress("concurrent-durable, \(threads) threads, run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        for (index, entry) in Self.policies.enumerated() {
          stoic[index].add(
            try DurableRun.stoic(
              perThread, policy: entry.policy, threads: threads,
              directory: directory + "/stoic\(index)"))
        }
        sqlite.append(
          try SQLitePeer.fullPerRowConcurrent(peerPerThread, threads: threads, in: directory))
        writeFsync.append(
          try DurableRun.writeFsync(peerPerThread, threads: threads, in: directory))
        fdatasync.append(try DurableRun.fdatasyncLatencies(records: 100, in: directory))
      }
    }
    let peers: [BenchResult.Peer] = [
      .init(name: "sqlite-full", summary: Summary(sqlite)),
      .init(name: "write-fsync", summary: Summary(writeFsync)),
    ]
    let title =
      "\(threads) threads, each record durable before its append returns, "
      + "\(perThread.count) records of 200 B per thread (peers: \(peerPerThread.count))"
    return Self.policies.enumerated().flatMap { index, entry in
      stoic[index].results(
        scenario: id, threads: threads, label: "stoic (\(entry.label))",
        metricSuffix: entry.suffix + "-\(threads)-threads",
        title: title + "; stoic \(entry.label)", peers: peers, fdatasync: fdatasync)
    }
  }
}
