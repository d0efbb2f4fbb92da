import BenchKit
import CBenchSystem
import InMemoryTracing
import StoicTelemetry
import StoicTracing
import Tracing

/// A span with three attributes started and ended through `withSpan`, in nanoseconds per span
/// (p50, p99, p99.9 of each call timed alone), through Stoic's tracer into a span spool (a
/// start and an end record each); the floors: swift-distributed-tracing's `NoOpTracer` (what
/// the API itself costs) and the in-memory tracer it ships (spans kept in an array, nothing
/// durable).
struct SpanRecordScenario: Scenario {
  let id = "span-record"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let spans = context.quick ? 20_000 : 100_000
    var latencies: [String: [LatencyPercentiles]] = [:]
    var throughput: [String: [Double]] = [:]
    var allocations: [String: [Double]] = [:]
    func measure(_ name: String, _ tracer: some Tracer) {
      var timings = [UInt64](repeating: 0, count: spans)
      let allocated = stoic_bench_allocations()
      let started = MonotonicClock.now()
      for index in 0..<spans {
        let before = MonotonicClock.now()
        Self.span(tracer)
        timings[index] = MonotonicClock.now() - before
      }
      throughput[name, default: []].append(
        Double(spans) / MonotonicClock.seconds(since: started))
      allocations[name, default: []].append(
        Double(stoic_bench_allocations() - allocated) / Double(spans))
      latencies[name, default: []].append(LatencyPercentiles(latencies: timings))
    }
    let swiftOTel = SwiftOTelPeer.locate()
    for run in 1...context.runs {
      context.progress("span-record, run \(run)/\(context.runs)")
      for (configuration, name) in SwiftOTelPeer.configurations {
        guard let swiftOTel else { continue }
        let timing = try context.inFreshDirectory(id) { directory in
          try swiftOTel.time("span", configuration: configuration, count: spans, in: directory)
        }
        throughput[name, default: []].append(timing.perSecond)
        latencies[name, default: []].append(timing.latency)
        allocations[name, default: []].append(timing.allocationsPerCall)
      }
      try context.inFreshDirectory(id) { directory in
        var options = TelemetryOptions()
        options.spans = LogSpoolOptions()
        let spool = try TelemetrySpool.open(at: directory + "/spool", options: options)
        measure("stoic", try StoicTracer(spool: spool))
        try spool.close()
      }
      measure("swift-distributed-tracing-noop", NoOpTracer())
      measure("swift-distributed-tracing-in-memory", InMemoryTracer())
    }
    let stoic = LatencyPercentiles.median(of: latencies["stoic"] ?? [])
    var result = BenchResult(
      scenario: id, metric: "spans-per-second", unit: "spans/s",
      title:
        "a span with 3 attributes started and ended through withSpan, \(spans) spans a run, "
        + "spans per second (higher is better)",
      stoic: Summary(throughput["stoic"] ?? []))
    result.latency = stoic
    let names =
      ["stoic", "swift-distributed-tracing-noop", "swift-distributed-tracing-in-memory"]
      + (swiftOTel == nil ? [] : SwiftOTelPeer.configurations.map(\.1))
    result.peers = names.dropFirst().map {
      BenchResult.Peer(name: $0, summary: Summary(throughput[$0] ?? []))
    }
    result.targets = [
      TargetCheck(
        label: "span ≤ 1 µs median", value: stoic.p50, threshold: 1_000, comparison: .atMost,
        unit: " ns"),
      TargetCheck(
        label: "span ≤ 10 µs p99", value: stoic.p99, threshold: 10_000, comparison: .atMost,
        unit: " ns"),
      TargetCheck(
        label: "no allocation beyond the API's own (swift-distributed-tracing-noop's)",
        value: Summary(allocations["stoic"] ?? []).median,
        threshold: Summary(allocations["swift-distributed-tracing-noop"] ?? []).median,
        comparison: .atMost, unit: " allocations"),
    ]
    result.notes =
      names.map {
        let percentiles = LatencyPercentiles.median(of: latencies[$0] ?? [])
        return "\($0) latency per span: p50 \(Format.number(percentiles.p50)) ns, "
          + "p99 \(Format.number(percentiles.p99)) ns, p999 \(Format.number(percentiles.p999)) ns"
      } + [
        "allocations per span (malloc family, this thread): "
          + names.map { "\($0) \(Format.number(Summary(allocations[$0] ?? []).median))" }
          .joined(separator: ", "),
        swiftOTel == nil ? SwiftOTelPeer.buildHint : SwiftOTelPeer.configurationNote,
      ]
    return [result]
  }

  /// The measured span: three attributes, started and ended through `withSpan`.
  @inline(__always)
  static func span(_ tracer: some Tracer) {
    tracer.withSpan("GET /users", context: .topLevel, ofKind: .server) { span in
      span.attributes["http.request.method"] = "GET"
      span.attributes["http.route"] = "/users"
      span.attributes["http.response.status_code"] = 200
    }
  }

  /// `count` of the measured span through Stoic's tracer into a span spool in `directory`
  /// (`stoic`), or through `NoOpTracer` (`noop`), untimed: for a profiler
  /// (`stoic-bench --child span-profile stoic|noop DIRECTORY COUNT`).
  static func profile(_ contender: String, in directory: String, count: Int) throws {
    switch contender {
    case "stoic":
      var options = TelemetryOptions()
      options.spans = LogSpoolOptions()
      let spool = try TelemetrySpool.open(at: directory + "/spool", options: options)
      let tracer = try StoicTracer(spool: spool)
      for _ in 0..<count { span(tracer) }
      try spool.close()
    case "noop":
      let tracer = NoOpTracer()
      for _ in 0..<count { span(tracer) }
    default: throw BenchError("span-profile: unknown contender \(contender)")
    }
  }
}
