import BenchKit
import CBenchSystem
import Foundation
import Logging
import StoicForwarding
import StoicLogging
import StoicTelemetry

/// The child processes of the scenarios that measure a process of its own (its peak memory, its
/// CPU time) or kill one: this binary re-executed as `stoic-bench --child NAME ARGUMENTS…`.
enum BenchChild {
  static func run(_ arguments: [String]) throws {
    guard let name = arguments.first else { throw BenchError("--child needs a name") }
    let rest = Array(arguments.dropFirst())
    switch name {
    case "log-rss": try logRSS(rest)
    case "spool-writer": try spoolWriter(rest)
    case "pipeline-app": try pipelineApp(rest)
    case "log-profile": try logProfile(rest)
    case "open-profile": try openProfile(rest)
    case "forward-profile": try forwardProfile(rest)
    case "span-profile":
      guard rest.count == 3, let count = Int(rest[2]) else {
        throw BenchError("span-profile needs a contender, a directory and a count")
      }
      try SpanRecordScenario.profile(rest[0], in: rest[1], count: count)
    default: throw BenchError("unknown child \(name)")
    }
  }

  /// `log-rss stoic|stream DIRECTORY COUNT`: COUNT calls through a `Logger`, no latencies kept;
  /// prints this process's peak resident memory (`VmHWM`). Not `wait4`'s `ru_maxrss`: a child
  /// started with `posix_spawn` shares the parent's memory until its `exec`, and Linux carries
  /// that high-water mark over into the child's.
  private static func logRSS(_ arguments: [String]) throws {
    guard arguments.count == 3, let count = Int(arguments[2]) else {
      throw BenchError("log-rss needs a handler, a directory and a count")
    }
    let line = LogLine()
    switch arguments[0] {
    case "stoic":
      _ = try SwiftLogPeer.stoic(
        line, count: count, in: arguments[1], latencies: false,
        options: TelemetryOptions(logs: LogSpoolOptions(byteLimit: 4 << 30)))
    case "stream":
      _ = try SwiftLogPeer.streamHandler(line, count: count, in: arguments[1], latencies: false)
    default: throw BenchError("log-rss: unknown handler \(arguments[0])")
    }
    FileHandle.standardOutput.write(Data("\(try ReplayChild.peakResidentBytes())\n".utf8))
  }

  /// `log-profile stoic|direct|noop|discard|stream DIRECTORY COUNT`: COUNT calls of one
  /// log-record contender and nothing else, no latencies kept, for a profiler (callgrind: the
  /// difference between two counts is the cost of the calls, start-up left out).
  private static func logProfile(_ arguments: [String]) throws {
    guard arguments.count == 3, let count = Int(arguments[2]) else {
      throw BenchError("log-profile needs a contender, a directory and a count")
    }
    let line = LogLine()
    let directory = arguments[1]
    let sample: RunSample
    switch arguments[0] {
    case "stoic":
      sample = try SwiftLogPeer.stoic(line, count: count, in: directory, latencies: false)
    case "direct":
      sample = try LogRecordScenario.stoic(line, count: count, in: directory, latencies: false)
    case "noop": sample = SwiftLogPeer.noOp(line, count: count, latencies: false)
    case "discard": sample = SwiftLogPeer.discard(line, count: count, latencies: false)
    case "stream":
      sample = try SwiftLogPeer.streamHandler(line, count: count, in: directory, latencies: false)
    default: throw BenchError("log-profile: unknown contender \(arguments[0])")
    }
    FileHandle.standardError.write(
      Data("\(arguments[0]): \(Int(sample.recordsPerSecond)) records/s\n".utf8))
  }

  /// `forward-profile direct|model|sender|fill DIRECTORY COUNT`: COUNT records of the log line
  /// spooled, then the protobuf body of all of them formed in batches of 4,096 as the forwarder
  /// forms it, from the spool's bytes (`direct`: `SpoolBatchSource.logsProtobuf`), or decoded
  /// into the OTLP model and encoded (`model`: `logsRequest` and `encoded(as:)`); prints the
  /// bodies' total size. `sender` is the `forwarding` scenario's `sender-only` run (a whole
  /// drain, protobuf+gzip, every request answered 200 in process), `fill` the same run without
  /// its drain. For a profiler: the difference between two counts is the per-record cost of the
  /// path (for the sender, less `fill`'s).
  private static func forwardProfile(_ arguments: [String]) throws {
    guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
      throw BenchError("forward-profile needs direct|model|sender|fill, a directory and a count")
    }
    if arguments[0] == "sender" || arguments[0] == "fill" {
      let run = ForwardingRun(
        encoding: .protobuf, compression: .gzip, toCollector: false,
        drains: arguments[0] == "sender")
      let sample = try run.measure(in: arguments[1], records: count)
      // `fill` times nothing: its line gives the count only.
      let timing =
        run.drains
        ? ", \(Int(sample.recordsPerSecond)) records/s, "
          + "\(sample.cpuMicrosecondsPerRecord) CPU µs per record" : ""
      FileHandle.standardError.write(
        Data("\(arguments[0]): \(sample.records) records\(timing)\n".utf8))
      return
    }
    let line = LogLine()
    let spool = try TelemetrySpool.open(at: arguments[1])
    for index in 0..<count {
      spool.logs.log(
        level: .info, label: line.label, message: line.message(index), metadata: line.metadata,
        source: line.source)
    }
    let source = SpoolBatchSource(spool: spool, options: ForwarderOptions())
    var bytes = 0
    var first = spool.logs.lowWaterMark + 1
    let last = spool.logs.lastSequence
    while first <= last {
      let range = SpoolRange(stream: .logs, first: first, last: min(first + 4_095, last))
      switch arguments[0] {
      case "direct": bytes += try source.logsProtobuf(range).body.count
      case "model": bytes += try source.logsRequest(range).request.encoded(as: .protobuf).count
      default: throw BenchError("forward-profile: direct or model, not \(arguments[0])")
      }
      first = range.last + 1
    }
    try spool.close()
    FileHandle.standardError.write(Data("\(arguments[0]): \(bytes) bytes\n".utf8))
  }

  /// `spool-writer DIRECTORY READY_AFTER COUNTER`: opens the spool (recovering it after the last
  /// writer's kill), logs through a `Logger` and stores in COUNTER how many calls have returned
  /// (over all writers); after READY_AFTER calls prints `ready` and goes on until it is killed.
  /// `open-profile make DIR BYTES SEGMENT_BYTES` writes a spool as `scale` does (sealed
  /// segments compressed); `open-profile open DIR COUNT` opens and closes it COUNT times and
  /// prints the median open in ms: for a profiler.
  private static func openProfile(_ arguments: [String]) throws {
    guard arguments.count == 3 || arguments.count == 4 else {
      throw BenchError("open-profile make DIR BYTES SEGMENT | open DIR COUNT")
    }
    if arguments[0] == "make", arguments.count == 4, let bytes = Int(arguments[2]),
      let segment = UInt64(arguments[3])
    {
      _ = try QuerySpool.make(at: arguments[1], bytes: bytes, segmentSize: segment)
      return
    }
    guard let count = Int(arguments[2]) else { throw BenchError("open-profile: a count") }
    var times: [Double] = []
    for _ in 0..<count {
      let start = MonotonicClock.now()
      let spool = try TelemetrySpool.open(at: arguments[1])
      times.append(MonotonicClock.seconds(since: start) * 1e3)
      try spool.close()
    }
    FileHandle.standardError.write(Data("open: \(Summary(times).median) ms\n".utf8))
  }

  private static func spoolWriter(_ arguments: [String]) throws {
    guard arguments.count == 3, let readyAfter = Int(arguments[1]) else {
      throw BenchError("spool-writer needs a directory, a count and a counter")
    }
    let counter = try SharedCounter(path: arguments[2])
    let spool = try TelemetrySpool.open(at: arguments[0], options: OpenAfterCrashScenario.options)
    let line = LogLine()
    let logger = Logger(label: line.label) { StoicLogHandler(label: $0, spool: spool) }
    var index = 0
    while true {
      SwiftLogPeer.info(logger, line, index)
      index += 1
      counter.value += 1
      if index == readyAfter {
        FileHandle.standardOutput.write(Data("ready \(spool.dropCounts)\n".utf8))
      }
    }
  }

  /// `pipeline-app stoic|jsonl PATH START END COUNTER RATE [ENDPOINT]`: logs the records with
  /// sequences START..<END through a `Logger` (message ``LogLine/message(sequence:)``), at most
  /// RATE a second (0: as fast as it can), storing in COUNTER the sequence after the last call
  /// that returned. `stoic`: into the spool at PATH
  /// with the forwarder running in this process towards ENDPOINT, then drains what is left;
  /// `jsonl`: JSON lines appended to the file PATH. Prints the bytes it caused to be written to
  /// storage (`write_bytes` of `/proc/self/io`), then on a second line the CPU seconds this
  /// thread spent in the log calls' loop (the rest of the process's CPU is its background
  /// threads: Stoic's forwarder and spool maintenance).
  private static func pipelineApp(_ arguments: [String]) throws {
    guard arguments.count >= 6, let start = Int(arguments[2]), let end = Int(arguments[3]),
      let rate = Int(arguments[5])
    else {
      throw BenchError("pipeline-app needs a mode, a path, a range, a counter and a rate")
    }
    let counter = try SharedCounter(path: arguments[4])
    counter.value = UInt64(start)
    // SIGTERM ends the loop; the app then drains (Stoic) or closes its file, as on a stop.
    stoic_bench_catch_sigterm()
    let line = LogLine()
    let pace = Pace(perSecond: rate)
    var loopCPU = 0.0
    switch arguments[0] {
    case "stoic":
      guard arguments.count == 7 else { throw BenchError("pipeline-app stoic needs an endpoint") }
      let endpoint = arguments[6]
      let spool = try TelemetrySpool.open(
        at: arguments[1], options: TelemetryOptions(logs: LogSpoolOptions(byteLimit: 4 << 30)))
      let forwarder = try AsyncBridge.wait {
        let exporter = try OTLPExporter(
          configuration: OTLPExporterConfiguration(endpoint: endpoint))
        let forwarder = try await Forwarder.open(spool: spool, exporter: exporter)
        await forwarder.start()
        return forwarder
      }
      let logger = Logger(label: line.label) { StoicLogHandler(label: $0, spool: spool) }
      let loopStart = ProcessCPU.threadSeconds()
      for sequence in start..<end {
        guard stoic_bench_sigterm_caught() == 0 else { break }
        SwiftLogPeer.info(logger, line, message: line.message(sequence: sequence))
        counter.value = UInt64(sequence + 1)
        pace.wait(sequence - start + 1)
      }
      loopCPU = ProcessCPU.threadSeconds() - loopStart
      try AsyncBridge.wait {
        await forwarder.stop()
        var report = try await forwarder.drain()
        var attempts = 0
        while report.haltedBecause != nil, attempts < 600 {
          attempts += 1
          try await Task.sleep(for: .milliseconds(100))
          report = try await forwarder.drain()
        }
        try await forwarder.close()
      }
      try spool.close()
    case "jsonl":
      let file = try RawFile.appending(arguments[1])
      defer { file.close() }
      let logger = Logger(label: line.label) { JSONLinesLogHandler(label: $0, file: file) }
      let loopStart = ProcessCPU.threadSeconds()
      for sequence in start..<end {
        guard stoic_bench_sigterm_caught() == 0 else { break }
        SwiftLogPeer.info(logger, line, message: line.message(sequence: sequence))
        counter.value = UInt64(sequence + 1)
        pace.wait(sequence - start + 1)
      }
      loopCPU = ProcessCPU.threadSeconds() - loopStart
    default: throw BenchError("pipeline-app: unknown mode \(arguments[0])")
    }
    FileHandle.standardOutput.write(
      Data("\(ProcessIO.writeBytes(pid: nil) ?? 0)\n\(loopCPU)\n".utf8))
  }
}
