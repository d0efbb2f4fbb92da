import BenchKit
import StoicStore
import StoicTelemetry

/// The log call as an app makes it: `logger.info` through swift-log's `Logger` with a 60-byte
/// message and three metadata pairs, one thread, over `StoicLogHandler` below the durable level
/// (process-crash safe: the record is in the kernel when the call returns).
/// Peers: swift-log's `StreamLogHandler` to a file, swift-log's no-op handler (the floor), a
/// discarding handler (what swift-log itself allocates), the spool's own call without swift-log,
/// the earlier imitation of the stream handler, `jsonl-write`, `sqlite-normal` (``LogPeer``,
/// ``SwiftLogPeer``).
struct LogRecordScenario: Scenario {
  let id = "log-record"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let count = context.quick ? 20_000 : 200_000
    let line = LogLine()
    typealias Contender = (name: String, run: (String, Int) throws -> RunSample)
    // The peers that write a system call per record, apart from swift-log's stream handler,
    // log a quarter of the records (sqlite-normal a tenth): their rates, in the default run's
    // time budget.
    let contenders: [Contender] = [
      ("stoic", { try SwiftLogPeer.stoic(line, count: $1, in: $0 + "/stoic") }),
      ("swift-log-stream-handler", { try SwiftLogPeer.streamHandler(line, count: $1, in: $0) }),
      ("swift-log-noop", { SwiftLogPeer.noOp(line, count: $1) }),
      ("swift-log-discarding-handler", { SwiftLogPeer.discard(line, count: $1) }),
      ("stoic-log-spool-direct", { try Self.stoic(line, count: $1, in: $0 + "/direct") }),
      ("stream-handler-imitation", { try LogPeer.streamHandler(line, count: $1 / 4, in: $0) }),
      ("jsonl-write", { try LogPeer.jsonlWrite(line, count: $1 / 4, in: $0) }),
      ("sqlite-normal", { try LogPeer.sqliteNormal(line, count: $1 / 10, in: $0) }),
    ]
    try context.inFreshDirectory("warm-up") { directory in
      for contender in contenders { _ = try contender.run(directory, count / 10) }
    }
    var rates: [String: [Double]] = [:]
    var latencies: [String: [LatencyPercentiles]] = [:]
    var allocations: [String: [Double]] = [:]
    let swiftOTel = SwiftOTelPeer.locate()
    for run in 1...context.runs {
      context.progress("log-record run \(run)/\(context.runs)")
      try context.inFreshDirectory(id) { directory in
        for contender in contenders {
          let sample = try contender.run(directory, count)
          rates[contender.name, default: []].append(sample.recordsPerSecond)
          latencies[contender.name, default: []].append(
            LatencyPercentiles(latencies: sample.latencies ?? []))
          allocations[contender.name, default: []].append(sample.allocationsPerCall ?? .nan)
        }
        for (configuration, name) in SwiftOTelPeer.configurations {
          guard let swiftOTel else { continue }
          let timing = try swiftOTel.time(
            "log-record", configuration: configuration, count: count, in: directory)
          rates[name, default: []].append(timing.perSecond)
          latencies[name, default: []].append(timing.latency)
          allocations[name, default: []].append(timing.allocationsPerCall)
        }
      }
    }
    let names =
      contenders.map(\.name) + (swiftOTel == nil ? [] : SwiftOTelPeer.configurations.map(\.1))
    var result = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "logger.info through swift-log (60-byte message, 3 metadata pairs), "
        + "process-crash safe, one thread, "
        + "\(count) records (stream-handler-imitation and jsonl-write: \(count / 4), "
        + "sqlite-normal: \(count / 10))",
      stoic: Summary(rates["stoic"] ?? []))
    result.peers = names.dropFirst().map {
      .init(name: $0, summary: Summary(rates[$0] ?? []))
    }
    let stoicLatency = LatencyPercentiles.median(of: latencies["stoic"] ?? [])
    result.latency = stoicLatency
    result.notes = names.dropFirst().map { name in
      let peer = LatencyPercentiles.median(of: latencies[name] ?? [])
      return "\(name) latency per call: p50 \(Format.number(peer.p50)) ns, "
        + "p99 \(Format.number(peer.p99)) ns, p999 \(Format.number(peer.p999)) ns"
    }
    result.notes.append(
      swiftOTel == nil ? SwiftOTelPeer.buildHint : SwiftOTelPeer.configurationNote)
    let allocated = names.map { ($0, Summary(allocations[$0] ?? []).median) }
    result.notes.append(
      "allocations per call (malloc family, this thread): "
        + allocated.map { "\($0.0) \(Format.number($0.1))" }.joined(separator: ", "))
    result.notes.append("every call of every contender is timed with clock_gettime")
    let stoicAllocations = allocated.first { $0.0 == "stoic" }?.1 ?? .nan
    let swiftLogAllocations =
      allocated.first { $0.0 == "swift-log-discarding-handler" }?.1 ?? .nan
    // Per call, to a hundredth: the spool's segment roll (a few allocations every 8 MiB, about
    // one per thousand calls, the direct spool call's figure) is not an allocation of the call.
    let beyond = ((stoicAllocations - swiftLogAllocations) * 100).rounded() / 100
    result.notes.append(
      "allocations beyond swift-log's own: \(Format.number(stoicAllocations - swiftLogAllocations))"
        + " per call, the spool's segment rolls (stoic-log-spool-direct makes "
        + "\(Format.number(allocated.first { $0.0 == "stoic-log-spool-direct" }?.1 ?? .nan)))")
    let discarding = LatencyPercentiles.median(of: latencies["swift-log-discarding-handler"] ?? [])
    result.targets = [
      TargetCheck(
        label: "stoic median − swift-log-discarding-handler's (what Stoic adds to swift-log's "
          + "own call) ≤ 250 ns", value: stoicLatency.p50 - discarding.p50, threshold: 250,
        comparison: .atMost, unit: " ns"),
      TargetCheck(
        label: "stoic median ≤ 250 ns (the moonshot: swift-log's own call included)",
        value: stoicLatency.p50, threshold: 250, comparison: .atMost, unit: " ns"),
      TargetCheck(
        label: "stoic p99 ≤ 5 µs", value: stoicLatency.p99, threshold: 5_000,
        comparison: .atMost, unit: " ns"),
      .ratio(
        result.stoic.median, over: result.peerMedian("swift-log-stream-handler") ?? .nan,
        atLeast: 10, label: "stoic ≥ 10× swift-log-stream-handler"),
      TargetCheck(
        label: "stoic allocations per call beyond swift-log's own (the discarding handler's "
          + "\(Format.number(swiftLogAllocations))), to 0.01, = 0",
        value: beyond, threshold: 0, comparison: .atMost, unit: ""),
    ]
    return [result]
  }

  /// A new telemetry spool (default options) in `directory`, `count` log calls at `info`.
  static func stoic(
    _ line: LogLine, count: Int, in directory: String, latencies: Bool = true
  ) throws -> RunSample {
    let spool = try TelemetrySpool.open(at: directory)
    let logs = spool.logs
    let sample = RunSample.timing(count: count, latencies: latencies) { index in
      logs.log(
        level: .info, label: line.label, message: line.message(index), metadata: line.metadata,
        source: line.source)
    }
    try spool.close()
    return sample
  }
}
