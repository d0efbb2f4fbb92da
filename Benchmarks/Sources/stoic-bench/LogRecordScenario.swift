import StoicStore
import StoicTelemetry

/// The telemetry spool's log call: a 60-byte message, three metadata pairs, one thread, below
/// the durable level (process-crash safe: the record is in the kernel when the call returns).
/// Peers: `stream-handler`, `jsonl-write`, `sqlite-normal` (``LogPeer``).
struct LogRecordScenario: Scenario {
  let id = "log-record"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let count = context.quick ? 20_000 : 200_000
    let line = LogLine()
    typealias Contender = (name: String, run: (String) throws -> RunSample)
    let contenders: [Contender] = [
      ("stoic", { try Self.stoic(line, count: count, in: $0 + "/stoic") }),
      ("stream-handler", { try LogPeer.streamHandler(line, count: count, in: $0) }),
      ("jsonl-write", { try LogPeer.jsonlWrite(line, count: count, in: $0) }),
      ("sqlite-normal", { try LogPeer.sqliteNormal(line, count: count / 10, in: $0) }),
    ]
    try context.inFreshDirectory("warm-up") { directory in
      for contender in contenders { _ = try contender.run(directory) }
    }
    var rates: [String: [Double]] = [:]
    var latencies: [String: [LatencyPercentiles]] = [:]
    for run in 1...context.runs {
      context.progress("log-record run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        for contender in contenders {
          let sample = try contender.run(directory)
          rates[contender.name, default: []].append(sample.recordsPerSecond)
          latencies[contender.name, default: []].append(
            LatencyPercentiles(latencies: sample.latencies ?? []))
        }
      }
    }
    var result = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "log call (60-byte message, 3 metadata pairs), process-crash safe, one thread, "
        + "\(count) records (sqlite-normal: \(count / 10))",
      stoic: Summary(rates["stoic"] ?? []))
    result.peers = contenders.dropFirst().map {
      .init(name: $0.name, summary: Summary(rates[$0.name] ?? []))
    }
    let stoicLatency = LatencyPercentiles.median(of: latencies["stoic"] ?? [])
    result.latency = stoicLatency
    result.notes = contenders.dropFirst().map { contender in
      let peer = LatencyPercentiles.median(of: latencies[contender.name] ?? [])
      return "\(contender.name) latency per call: p50 \(Format.number(peer.p50)) ns, "
        + "p99 \(Format.number(peer.p99)) ns, p999 \(Format.number(peer.p999)) ns"
    }
    result.notes.append("every call of every contender is timed with clock_gettime")
    result.targets = [
      TargetCheck(
        label: "stoic median ≤ 1 µs", value: stoicLatency.p50, threshold: 1_000,
        comparison: .atMost, unit: " ns"),
      TargetCheck(
        label: "stoic p99 ≤ 15 µs", value: stoicLatency.p99, threshold: 15_000,
        comparison: .atMost, unit: " ns"),
      .ratio(
        result.stoic.median, over: result.peerMedian("stream-handler") ?? .nan, atLeast: 10,
        label: "stoic ≥ 10× stream-handler"),
    ]
    return [result]
  }

  /// A new telemetry spool (default options) in `directory`, `count` log calls at `info`.
  static func stoic(_ line: LogLine, count: Int, in directory: String) throws -> RunSample {
    let spool = try TelemetrySpool.open(at: directory)
    let logs = spool.logs
    let sample = RunSample.timing(count: count, latencies: true) { index in
      logs.log(
        level: .info, label: line.label, message: line.message(index), metadata: line.metadata,
        source: line.source)
    }
    try spool.close()
    return sample
  }
}
