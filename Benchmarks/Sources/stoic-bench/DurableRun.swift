import BenchKit
import StoicStore
import Synchronization

/// One run of T threads appending durable records, and the peers of that scenario.
struct DurableRun {
  let seconds: Double
  let records: Int
  /// Segment syncs the journal made during the timed appends.
  let syncs: Int
  /// Every append's latency, in nanoseconds.
  let latencies: [UInt64]

  /// Stoic: a new journal under `policy` (every append waits for its record to be durable),
  /// `threads` threads each appending the workload. Syncs are counted through a
  /// ``TimingFileSystem`` (a clock read per file call; appends make none).
  static func stoic(
    _ perThread: Workload, policy: SyncPolicy, threads: Int, directory: String
  ) throws -> DurableRun {
    let profile = FileSystemProfile()
    let journal = try StoicContender.open(
      directory, policy: policy, fileSystem: TimingFileSystem(profile: profile))
    profile.reset()
    let collected = Mutex<[UInt64]>([])
    let seconds = try ParallelRun.seconds(threads: threads) { _ in
      var latencies = [UInt64](repeating: 0, count: perThread.count)
      for index in 0..<perThread.count {
        let start = MonotonicClock.now()
        try journal.append(perThread.payload(index))
        latencies[index] = MonotonicClock.now() - start
      }
      collected.withLock { $0 += latencies }
    }
    let syncs = profile.totals.calls[.sync] ?? 0
    try journal.close()
    return DurableRun(
      seconds: seconds, records: perThread.count * threads, syncs: syncs,
      latencies: collected.withLock { $0 })
  }

  /// `write` + `fsync` per record from every thread on one `O_APPEND` file; records/s.
  static func writeFsync(_ perThread: Workload, threads: Int, in directory: String) throws
    -> Double
  {
    let file = try RawFile.create(directory + "/write-fsync.dat", append: true)
    defer { file.close() }
    let seconds = try ParallelRun.seconds(threads: threads) { _ in
      for index in 0..<perThread.count {
        try file.write(perThread.payload(index))
        try file.fsync()
      }
    }
    return Double(perThread.count * threads) / seconds
  }

  /// The time of one `fdatasync` after appending a 200-byte record (`pwrite` at the end of a
  /// new file), over `records` records, in nanoseconds.
  static func fdatasyncLatencies(records: Int, in directory: String) throws -> LatencyPercentiles {
    let file = try RawFile.create(directory + "/fdatasync.dat")
    defer { file.close() }
    let payload = [UInt8](repeating: 0x61, count: 200)
    var times: [UInt64] = []
    for index in 0..<records {
      try file.pwrite(payload, at: index * payload.count)
      let start = MonotonicClock.now()
      try file.fdatasync()
      times.append(MonotonicClock.now() - start)
    }
    return LatencyPercentiles(latencies: times)
  }
}
