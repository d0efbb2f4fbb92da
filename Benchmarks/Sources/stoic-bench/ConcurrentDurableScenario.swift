import StoicStore

/// Scenario 3: threads whose every record is durable before its append returns.
///
/// Run with the two threads, and with 16, where group commit has more than two records
/// to share a sync with. Stoic runs ``SyncPolicy/groupCommit(maxDelay:maxRecords:)`` with
/// 10 ms / 1,000 records (the cadence of scenario 2) and, as a second figure, with no delay
/// (the leader syncs at once and appenders arriving meanwhile share the next sync). The peer at
/// each thread count syncs per record: `write` + `fsync` from every thread on one `O_APPEND`
/// file.
struct ConcurrentDurableScenario: Scenario {
  let id = "concurrent-durable"
  /// The thread counts measured: the two, then enough for group commit to show.
  let threadCounts = [2, 16]

  func run(in context: BenchContext) throws -> [BenchResult] {
    try threadCounts.flatMap { threads in try run(threads: threads, in: context) }
  }

  private func run(threads: Int, in context: BenchContext) throws -> [BenchResult] {
    // The same number of records in all at every thread count.
    let total = context.quick ? 320 : 1_600
    let perThread = Workload(
      payloads: LogCorpus.records(count: 4096, size: 200), count: total / threads)
    let delayed = SyncPolicy.groupCommit(maxDelay: .milliseconds(10), maxRecords: 1_000)
    let immediate = SyncPolicy.groupCommit(maxDelay: .zero, maxRecords: 1_000)
    var delayedSamples: [Double] = []
    var immediateSamples: [Double] = []
    var peerSamples: [Double] = []
    let records = Double(perThread.count * threads)
    for run in 1...context.runs {
      context.progress("concurrent-durable, \(threads) threads, run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        delayedSamples.append(
          records / (try stoic(perThread, delayed, threads, directory + "/delayed").seconds))
        immediateSamples.append(
          records / (try stoic(perThread, immediate, threads, directory + "/immediate").seconds))
        peerSamples.append(records / (try writeFsync(perThread, threads, directory)))
      }
    }
    let peer = BenchResult.Peer(name: "write-fsync", summary: Summary(peerSamples))
    let syncLines = try [delayed, immediate].map { policy in
      try context.inFreshDirectory(id) { directory in
        let profile = FileSystemProfile()
        let run = try stoic(
          perThread, policy, threads, directory + "/profiled", profile: profile)
        return TimeBreakdown(
          wallSeconds: run.seconds, records: Int(records), totals: run.totals ?? .init()
        ).syncLine()
      }
    }
    let title =
      "\(threads) threads, durable before return, \(perThread.count) records of 200 B each"
    let suffix = threads == threadCounts[0] ? "" : "-\(threads)-threads"
    return [
      result(
        metric: "throughput" + suffix,
        title: title + "; stoic group commit 10 ms / 1,000 records",
        stoic: delayedSamples, peer: peer, note: syncLines[0], label: "stoic", threads: threads),
      result(
        metric: "throughput-no-delay" + suffix,
        title: title + "; stoic group commit, no delay",
        stoic: immediateSamples, peer: peer, note: syncLines[1], label: "stoic (no delay)",
        threads: threads),
    ]
  }

  private func result(
    metric: String, title: String, stoic: [Double], peer: BenchResult.Peer, note: String,
    label: String, threads: Int
  ) -> BenchResult {
    var result = BenchResult(
      scenario: id, metric: metric, unit: "records/s", title: title, stoic: Summary(stoic))
    result.peers = [peer]
    result.notes = [note]
    result.targets = [
      .ratio(
        result.stoic.median, over: peer.summary.median, atLeast: 10,
        label: "\(label) ≥ 10× write-fsync, \(threads) threads")
    ]
    return result
  }

  private func stoic(
    _ perThread: Workload, _ policy: SyncPolicy, _ threads: Int, _ directory: String,
    profile: FileSystemProfile? = nil
  ) throws -> (seconds: Double, totals: FileSystemProfile.Totals?) {
    let journal = try StoicContender.open(
      directory, policy: policy,
      fileSystem: profile.map { TimingFileSystem(profile: $0) } ?? PosixFileSystem())
    profile?.reset()
    let seconds = try ParallelRun.seconds(threads: threads) { _ in
      for index in 0..<perThread.count {
        try journal.append(perThread.payload(index))
      }
    }
    let totals = profile?.totals
    try journal.close()
    return (seconds, totals)
  }

  private func writeFsync(_ perThread: Workload, _ threads: Int, _ directory: String) throws
    -> Double
  {
    let file = try RawFile.create(directory + "/write-fsync.dat", append: true)
    defer { file.close() }
    return try ParallelRun.seconds(threads: threads) { _ in
      for index in 0..<perThread.count {
        try file.write(perThread.payload(index))
        try file.fsync()
      }
    }
  }
}
