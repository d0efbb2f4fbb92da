import BenchKit

/// Scenario 1: a log call that is safe against a process crash, one thread.
///
/// Stoic appends each record with ``SyncPolicy/never`` (the record is in the kernel when the
/// call returns); peers: a bare `pwrite` per record and SQLite WAL `synchronous=NORMAL` with one
/// row per transaction; and, as the floor below one system call per record, journal-style
/// frames copied into a `MAP_SHARED` file mapping (`mmap-shared`).
struct LogCallScenario: Scenario {
  let id = "log-call"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let workload = Workload(
      payloads: LogCorpus.records(count: 4096, size: 200),
      count: context.quick ? 20_000 : 200_000)
    let warmUp = workload.with(count: workload.count / 10)
    // SQLite commits a transaction per row (about 70 µs each): a tenth of the records gives
    // its rate as well and keeps the default run inside its budget.
    let sqliteWorkload = workload.with(count: workload.count / 10)
    try context.inFreshDirectory("warm-up") { directory in
      _ = try StoicContender.appendPerRecord(warmUp, policy: .never, in: directory)
      _ = try FloorPeer.pwrite(warmUp, in: directory)
      _ = try SQLitePeer.normalPerRow(warmUp.with(count: warmUp.count / 10), in: directory)
      _ = try FloorPeer.mmapShared(warmUp, in: directory)
    }
    var stoic: [Double] = []
    var pwrite: [Double] = []
    var sqlite: [Double] = []
    var mapped: [Double] = []
    var mappedFaults: [Double] = []
    var mappedWindows = 0
    var latencies: [String: [LatencyPercentiles]] = [:]
    func record(_ name: String, _ sample: RunSample, into figures: inout [Double]) {
      figures.append(sample.recordsPerSecond)
      latencies[name, default: []].append(LatencyPercentiles(latencies: sample.latencies ?? []))
    }
    for run in 1...context.runs {
      context.progress("log-call run \(run)/\(context.runs)")
      try context.inFreshDirectory("log-call") { directory in
        record(
          "stoic",
          try StoicContender.appendPerRecord(
            workload, policy: .never, in: directory, latencies: true), into: &stoic)
        record(
          "pwrite", try FloorPeer.pwrite(workload, in: directory, latencies: true), into: &pwrite)
        record(
          "sqlite-normal",
          try SQLitePeer.normalPerRow(sqliteWorkload, in: directory, latencies: true),
          into: &sqlite)
        let mappedSample = try FloorPeer.mmapShared(workload, in: directory, latencies: true)
        record("mmap-shared", mappedSample, into: &mapped)
        mappedFaults.append(Double(mappedSample.minorFaults ?? 0))
        mappedWindows = mappedSample.mappedWindows ?? 0
      }
    }
    var result = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "log call, process-crash safe, one thread, \(workload.count) records of 200 B "
        + "(sqlite-normal: \(sqliteWorkload.count))",
      stoic: Summary(stoic))
    result.peers = [
      .init(name: "pwrite", summary: Summary(pwrite)),
      .init(name: "sqlite-normal", summary: Summary(sqlite)),
      .init(name: "mmap-shared", summary: Summary(mapped)),
    ]
    result.latency = LatencyPercentiles.median(of: latencies["stoic"] ?? [])
    result.notes = ["pwrite", "sqlite-normal", "mmap-shared"].map { name in
      let peer = LatencyPercentiles.median(of: latencies[name] ?? [])
      return "\(name) latency per call: p50 \(Format.number(peer.p50)) ns, "
        + "p99 \(Format.number(peer.p99)) ns, p999 \(Format.number(peer.p999)) ns"
    }
    result.notes.append("every call is timed with clock_gettime(CLOCK_MONOTONIC) for all four")
    let mappedMedian = Summary(mapped).median
    result.notes.append(
      "mmap-shared (a peer, not Stoic): \(Format.ratio(mappedMedian / Summary(sqlite).median)) "
        + "sqlite-normal, \(Format.ratio(mappedMedian / Summary(pwrite).median)) pwrite "
        + "(16-byte frame + CRC32C copied into a MAP_SHARED mapping of a preallocated file, "
        + "\(mappedWindows) windows of \(MappedAppender.chunkSize >> 20) MiB per run; "
        + "\(Format.number(Summary(mappedFaults).median)) minor page faults per run, median, "
        + "the timing's own latency array included)")
    result.notes.append(
      try context.inFreshDirectory(id) {
        try StoicContender.profiledAppendPerRecord(workload, policy: .never, in: $0).line()
      })
    let median = result.stoic.median
    result.targets = [
      .ratio(
        median, over: Summary(sqlite).median, atLeast: 30, label: "stoic ≥ 30× sqlite-normal"),
      .ratio(median, over: Summary(pwrite).median, atLeast: 1, label: "stoic ≥ 1× pwrite"),
    ]
    return [result]
  }
}
