// `swift-otel-peer`: the benchmark's swift-otel contender, run by `stoic-bench` as a child
// process. It sets swift-otel 1.5.0 up as its README shows (`OTel.bootstrap`, the OTLP/HTTP
// exporter with protobuf, here to the example collector at ENDPOINT), with its defaults
// (`default`) or with the batch processor raised as a tuned user would (`tuned`), then runs one
// of the benchmark's loops:
//
//     swift-otel-peer log-record CONFIG ENDPOINT COUNT
//     swift-otel-peer metric-increment CONFIG ENDPOINT COUNT
//     swift-otel-peer span CONFIG ENDPOINT COUNT
//     swift-otel-peer pipeline-app CONFIG ENDPOINT START END COUNTER RATE
//
// The first three time COUNT calls (the benchmark's log line through `Logger`, a counter's
// increment through swift-metrics, a span with three attributes through `withSpan`) and print
// one JSON object: `per_second`, `p50`, `p99`, `p999` (ns per call; for the increment, timed
// as one loop as the benchmark times its own, the mean) and `allocations` (per call, this
// thread). `pipeline-app` logs the messages START..<END (`BenchLine`'s, each
// carrying its sequence) at RATE a second (0: flat out), storing after each call how many have
// returned in the shared counter file COUNTER, and stops at END or at SIGTERM (swift-otel's
// service then flushes what it holds); it prints the bytes it caused to be written and its
// loop's CPU seconds, a line each. Every mode shuts swift-otel down gracefully at the end.

import BenchKit
import Foundation
import Logging
import Metrics
import OTel
import ServiceLifecycle
import Tracing

/// The configurations the benchmark names.
enum PeerConfiguration: String {
  /// swift-otel's defaults: logs exported every second, at most 512 a batch, 2,048 queued.
  case `default`
  /// What a user who read the batch processors' documentation would set: a batch of 8,192 every
  /// 200 ms, up to 262,144 queued.
  case tuned

  /// The configuration for `endpoint` (the collector's base URL): one signal enabled, OTLP/HTTP
  /// protobuf to its path there, the diagnostic logger quiet.
  func configuration(endpoint: String, signal: String) -> OTel.Configuration {
    var configuration = OTel.Configuration.default
    configuration.serviceName = "swift-otel-peer"
    configuration.diagnosticLogLevel = .error
    configuration.logs.enabled = signal == "logs"
    configuration.metrics.enabled = signal == "metrics"
    configuration.traces.enabled = signal == "traces"
    configuration.logs.otlpExporter.endpoint = endpoint + "/v1/logs"
    configuration.logs.otlpExporter.protocol = .httpProtobuf
    configuration.metrics.otlpExporter.endpoint = endpoint + "/v1/metrics"
    configuration.metrics.otlpExporter.protocol = .httpProtobuf
    configuration.traces.otlpExporter.endpoint = endpoint + "/v1/traces"
    configuration.traces.otlpExporter.protocol = .httpProtobuf
    if self == .tuned {
      configuration.logs.batchLogRecordProcessor.scheduleDelay = .milliseconds(200)
      configuration.logs.batchLogRecordProcessor.maxExportBatchSize = 8_192
      configuration.logs.batchLogRecordProcessor.maxQueueSize = 262_144
      configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(200)
      configuration.traces.batchSpanProcessor.maxExportBatchSize = 8_192
      configuration.traces.batchSpanProcessor.maxQueueSize = 262_144
    }
    return configuration
  }
}

/// Writes `line` to standard output at once.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Times `count` calls of `body`, each alone (or, with `perCall` false, only the loop: the
/// percentiles are then its mean); prints the JSON object.
func timeCalls(_ count: Int, perCall: Bool = true, _ body: (Int) -> Void) {
  var latencies = [UInt64](repeating: 0, count: perCall ? count : 0)
  let allocations = Allocations.count()
  let start = MonotonicClock.now()
  if perCall {
    for index in 0..<count {
      let before = MonotonicClock.now()
      body(index)
      latencies[index] = MonotonicClock.now() - before
    }
  } else {
    for index in 0..<count { body(index) }
    let mean = (MonotonicClock.now() - start) / UInt64(max(1, count))
    latencies = [mean]
  }
  let seconds = MonotonicClock.seconds(since: start)
  let allocated = Allocations.count() - allocations
  let percentiles = LatencyPercentiles(latencies: latencies)
  say(
    "{\"per_second\": \(Double(count) / seconds), \"p50\": \(percentiles.p50), "
      + "\"p99\": \(percentiles.p99), \"p999\": \(percentiles.p999), "
      + "\"allocations\": \(Double(allocated) / Double(max(1, count)))}")
}

/// The work of one mode, run as a service beside swift-otel's; it ends the group when done.
struct Work: Service {
  let mode: String
  let arguments: [String]

  func run() async throws {
    let line = BenchLine()
    let metadata = Logger.Metadata(
      uniqueKeysWithValues: line.metadataPairs.map { ($0.0, Logger.MetadataValue.string($0.1)) })
    switch mode {
    case "log-record":
      let logger = Logger(label: line.label)
      timeCalls(Int(arguments[0]) ?? 0) { index in
        logger.info("\(line.message(index))", metadata: metadata, source: line.source)
      }
    case "metric-increment":
      let counter = Counter(label: "bench.requests")
      timeCalls(Int(arguments[0]) ?? 0, perCall: false) { _ in counter.increment() }
    case "span":
      timeCalls(Int(arguments[0]) ?? 0) { _ in
        withSpan("GET /users", context: .topLevel, ofKind: .server) { span in
          span.attributes["http.request.method"] = "GET"
          span.attributes["http.route"] = "/users"
          span.attributes["http.response.status_code"] = 200
        }
      }
    case "pipeline-app":
      try await pipelineApp(line: line, metadata: metadata)
    default:
      say("unknown mode \(mode)")
    }
  }

  /// Logs `START..<END` at the rate asked, the counter after each call, until done or a
  /// graceful shutdown; then prints the bytes written and the loop's CPU.
  func pipelineApp(line: BenchLine, metadata: Logger.Metadata) async throws {
    guard arguments.count == 4, let start = Int(arguments[0]), let end = Int(arguments[1]),
      let rate = Int(arguments[3])
    else { throw BenchError("pipeline-app needs START END COUNTER RATE") }
    let counter = try SharedCounter(path: arguments[2])
    counter.value = UInt64(start)
    let logger = Logger(label: line.label)
    let pace = Pace(perSecond: rate)
    let loopStart = ProcessCPU.threadSeconds()
    await cancelWhenGracefulShutdown {
      var sequence = start
      while sequence < end, !Task.isCancelled {
        logger.info(
          "\(line.message(sequence: sequence))", metadata: metadata, source: line.source)
        counter.value = UInt64(sequence + 1)
        sequence += 1
        pace.wait(sequence - start)
        // A turn for the other tasks now and then, as a service's loop gives them.
        if sequence % 1_024 == 0 { await Task.yield() }
      }
    }
    let loopCPU = ProcessCPU.threadSeconds() - loopStart
    say("\(ProcessIO.writeBytes(pid: nil) ?? 0)\n\(loopCPU)")
  }
}

/// Runs `work` beside swift-otel's service; a graceful shutdown (SIGTERM, or the work's end)
/// stops both, swift-otel exporting what it holds.
func runPeer() async throws {
  let arguments = CommandLine.arguments
  guard arguments.count >= 5, let configuration = PeerConfiguration(rawValue: arguments[2])
  else {
    say("usage: swift-otel-peer MODE default|tuned ENDPOINT ARGUMENTS…")
    exit(2)
  }
  let mode = arguments[1]
  let signal =
    switch mode {
    case "metric-increment": "metrics"
    case "span": "traces"
    default: "logs"
    }
  let observability = try OTel.bootstrap(
    configuration: configuration.configuration(endpoint: arguments[3], signal: signal))
  let work = Work(mode: mode, arguments: Array(arguments.dropFirst(4)))
  let group = ServiceGroup(
    configuration: ServiceGroupConfiguration(
      services: [
        .init(service: observability),
        .init(service: work, successTerminationBehavior: .gracefullyShutdownGroup),
      ],
      gracefulShutdownSignals: [.sigterm],
      logger: Logger(label: "peer", factory: { _ in SwiftLogNoOpLogHandler() })))
  try await group.run()
}

try await runPeer()
