import BenchKit
import StoicTelemetry
import Synchronization

/// The log call at the durable level (`error`: the record is synced before the call returns)
/// from 16 threads, against SQLite `synchronous=FULL` with 16 threads each committing its own
/// row.
struct LogDurableScenario: Scenario {
  let id = "log-durable"
  let threads = 16

  func run(in context: BenchContext) throws -> [BenchResult] {
    let perThread = context.quick ? 40 : 100
    let line = LogLine()
    var stoic: [Double] = []
    var sqlite: [Double] = []
    var latencies: [LatencyPercentiles] = []
    for run in 1...context.runs {
      context.progress("log-durable run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        let spool = try TelemetrySpool.open(at: directory + "/spool")
        let logs = spool.logs
        let collected = Mutex<[UInt64]>([])
        let dropped = Mutex(0)
        let seconds = try ParallelRun.seconds(threads: threads) { _ in
          var times = [UInt64](repeating: 0, count: perThread)
          for index in 0..<perThread {
            let start = MonotonicClock.now()
            let sequence = logs.log(
              level: .error, label: line.label, message: line.message(index),
              metadata: line.metadata, source: line.source)
            times[index] = MonotonicClock.now() - start
            if sequence == nil { dropped.withLock { $0 += 1 } }
          }
          collected.withLock { $0 += times }
        }
        try spool.close()
        if dropped.withLock({ $0 }) > 0 { throw BenchError("log-durable: records dropped") }
        stoic.append(Double(perThread * threads) / seconds)
        latencies.append(LatencyPercentiles(latencies: collected.withLock { $0 }))
        let rows = Workload(
          payloads: (0..<4).map { Array(LogPeer.jsonLine(line, $0).utf8) }, count: perThread)
        sqlite.append(
          try SQLitePeer.fullPerRowConcurrent(rows, threads: threads, in: directory))
      }
    }
    var result = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "log call at the durable level (error), \(threads) threads, \(perThread) records "
        + "each; sqlite-full: \(threads) threads each committing its own row",
      stoic: Summary(stoic))
    result.peers = [.init(name: "sqlite-full", summary: Summary(sqlite))]
    result.latency = LatencyPercentiles.median(of: latencies)
    result.targets = [
      .ratio(
        result.stoic.median, over: Summary(sqlite).median, atLeast: 8,
        label: "stoic ≥ 8× sqlite-full, \(threads) threads")
    ]
    return [result]
  }
}
