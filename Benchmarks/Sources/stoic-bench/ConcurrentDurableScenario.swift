import StoicStore

/// Scenario 3: 16 threads, each record durable before its append returns.
///
/// Stoic runs ``SyncPolicy/groupCommit(maxDelay:maxRecords:)`` with 10 ms / 1,000 records (the
/// cadence of scenario 2), and, as a second figure, with no delay (the leader syncs at once and
/// appenders arriving meanwhile share the next sync). The peer syncs per record: `write` +
/// `fsync` from both threads on one `O_APPEND` file.
struct ConcurrentDurableScenario: Scenario {
  let id = "concurrent-durable"
  /// Enough concurrent durable appenders for group commit to show (16 logging threads; the
  /// peer runs the same number of threads).
  let threads = 16

  func run(in context: BenchContext) throws -> [BenchResult] {
    let perThread = Workload(
      payloads: LogCorpus.records(count: 4096, size: 200), count: context.quick ? 20 : 100)
    let delayed = SyncPolicy.groupCommit(maxDelay: .milliseconds(10), maxRecords: 1_000)
    let immediate = SyncPolicy.groupCommit(maxDelay: .zero, maxRecords: 1_000)
    var delayedSamples: [Double] = []
    var immediateSamples: [Double] = []
    var peerSamples: [Double] = []
    let total = Double(perThread.count * threads)
    for run in 1...context.runs {
      context.progress("concurrent-durable run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        delayedSamples.append(
          total / (try stoic(perThread, delayed, directory + "/delayed").seconds))
        immediateSamples.append(
          total / (try stoic(perThread, immediate, directory + "/immediate").seconds))
        peerSamples.append(total / (try writeFsync(perThread, directory)))
      }
    }
    let peer = BenchResult.Peer(name: "write-fsync", summary: Summary(peerSamples))
    let syncLines = try [delayed, immediate].map { policy in
      try context.inFreshDirectory(id) { directory in
        let profile = FileSystemProfile()
        let run = try stoic(perThread, policy, directory + "/profiled", profile: profile)
        return TimeBreakdown(
          wallSeconds: run.seconds, records: Int(total), totals: run.totals ?? .init()
        ).syncLine()
      }
    }
    let title =
      "\(threads) threads, durable before return, \(perThread.count) records of 200 B each"
    return [
      result(
        metric: "throughput", title: title + "; stoic group commit 10 ms / 1,000 records",
        stoic: delayedSamples, peer: peer, note: syncLines[0], label: "stoic"),
      result(
        metric: "throughput-no-delay", title: title + "; stoic group commit, no delay",
        stoic: immediateSamples, peer: peer, note: syncLines[1], label: "stoic (no delay)"),
    ]
  }

  private func result(
    metric: String, title: String, stoic: [Double], peer: BenchResult.Peer, note: String,
    label: String
  ) -> BenchResult {
    var result = BenchResult(
      scenario: id, metric: metric, unit: "records/s", title: title, stoic: Summary(stoic))
    result.peers = [peer]
    result.notes = [note]
    result.targets = [
      .ratio(
        result.stoic.median, over: peer.summary.median, atLeast: 10,
        label: "\(label) ≥ 10× write-fsync")
    ]
    return result
  }

  private func stoic(
    _ perThread: Workload, _ policy: SyncPolicy, _ directory: String,
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

  private func writeFsync(_ perThread: Workload, _ directory: String) throws -> Double {
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
