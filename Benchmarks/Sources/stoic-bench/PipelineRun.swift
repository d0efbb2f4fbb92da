import BenchKit
import Foundation
import StoicCollector
import StoicForwarding

/// One run of the `pipeline` scenario's two pipelines, each into a fresh example collector on
/// 127.0.0.1 in this process: Stoic (an app child process logging through `StoicLogHandler`
/// with the forwarder in the same process) and the peer (the same app logging JSON lines
/// through swift-log to a file, shipped by `otelcol-contrib`'s `filelog` receiver, `batch`
/// processor and `otlphttp` exporter with gzip).
struct PipelineRun {
  /// What a throughput run measured.
  struct Sample {
    let records: Int
    /// From the app's start until the collector holds every record.
    let seconds: Double
    /// CPU seconds of the app and the shipper (the collector's are not counted: it is the same
    /// receiver for both).
    let cpuSeconds: Double
    /// Bytes the app and the shipper caused to be written to storage (`write_bytes`).
    let writtenBytes: Int
    /// Of ``cpuSeconds``, the app's main thread in its loop of log calls (the rest: Stoic's
    /// forwarder and spool maintenance in the app, or the app's start-up and `otelcol-contrib`).
    var logCallCPUSeconds = 0.0

    var recordsPerSecond: Double { Double(records) / seconds }
    var cpuSecondsPerMillion: Double { cpuSeconds * 1e6 / Double(records) }
    var bytesPerRecord: Double { Double(writtenBytes) / Double(records) }
    /// The log calls' CPU per record, µs.
    var logCallMicroseconds: Double { logCallCPUSeconds * 1e6 / Double(records) }
    /// The rest of the CPU per record (the shipping), µs.
    var shippingMicroseconds: Double { (cpuSeconds - logCallCPUSeconds) * 1e6 / Double(records) }
  }

  /// What a kill run counted at the collector.
  struct KillTally {
    let kills: Int
    /// Log calls that returned, over every app process.
    let returned: Int
    /// Of those, the records the collector does not hold.
    let lost: Int
    /// Records the collector holds more than once (extra copies).
    let duplicated: Int
  }

  let directory: String
  /// The `otelcol-contrib` binary (the peer), when there is one.
  let otelcol: String?

  // MARK: throughput

  /// Stoic: the app logs `records` as fast as it can with the forwarder running, then drains.
  func stoic(records: Int) throws -> Sample {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let start = MonotonicClock.now()
    let app = try startStoicApp(collector, range: 0..<records, rate: 0, output: "stoic-app.out")
    let exit = try app.succeed("the Stoic app")
    try Self.waitForRecords(collector, records)
    let seconds = MonotonicClock.seconds(since: start)
    let printed = Self.printedNumbers(directory + "/stoic-app.out")
    return Sample(
      records: records, seconds: seconds, cpuSeconds: exit.cpuSeconds,
      writtenBytes: Int(printed.first ?? 0), logCallCPUSeconds: printed.dropFirst().first ?? 0)
  }

  /// The peer: `otelcol-contrib` started first and idle, then the app logs `records` JSON
  /// lines; timed from the app's start until the collector holds them all. The shipper's CPU
  /// is counted from the app's start (its start-up left out).
  func peer(records: Int, startAt: String) throws -> Sample {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let log = directory + "/app.log"
    let startShipper = try shipper(collector, log: log, startAt: startAt)
    let shipper = try startShipper()
    defer {
      shipper.kill()
      _ = try? shipper.wait()
    }
    usleep(1_500_000)
    let shipperStart = shipper.cpuSecondsSoFar()
    let start = MonotonicClock.now()
    let app = try ChildProcess.spawn(
      ChildProcess.benchmark,
      ["--child", "pipeline-app", "jsonl", log, "0", String(records), counterPath, "0"],
      output: directory + "/peer-app.out")
    let exit = try app.succeed("the peer app")
    try Self.waitForRecords(collector, records)
    let seconds = MonotonicClock.seconds(since: start)
    let shipperCPU = shipper.cpuSecondsSoFar() - shipperStart
    let shipperBytes = ProcessIO.writeBytes(pid: shipper.pid) ?? 0
    let printed = Self.printedNumbers(directory + "/peer-app.out")
    return Sample(
      records: records, seconds: seconds, cpuSeconds: exit.cpuSeconds + shipperCPU,
      writtenBytes: Int(printed.first ?? 0) + shipperBytes,
      logCallCPUSeconds: printed.dropFirst().first ?? 0)
  }

  // MARK: kills

  /// Stoic under `kills` SIGKILLs of the app (which holds the forwarder) at random moments,
  /// logging at `rate` records a second; then one app that logs a last few records and drains.
  func stoicKills(_ kills: Int, rate: Int, random: inout BenchRandom) throws -> KillTally {
    try appKills(kills, random: &random) { collector, range in
      try startStoicApp(collector, range: range, rate: rate, output: "stoic-app.out")
    }
  }

  /// An app started by `start` (into the collector, for a range of sequences) SIGKILLed
  /// `kills` times at random moments and started again each time; then one that logs a last
  /// thousand records and ends by itself.
  func appKills(
    _ kills: Int, random: inout BenchRandom,
    start: (Collector, Range<Int>) throws -> ChildProcess
  ) throws -> KillTally {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let counter = try SharedCounter(path: counterPath)
    var returned: [Range<Int>] = []
    var next = 0
    for _ in 0..<kills {
      let app = try start(collector, next..<(1 << 40))
      usleep(UInt32.random(in: 100_000...600_000, using: &random))
      app.kill()
      _ = try app.wait()
      let end = Int(counter.value)
      returned.append(next..<max(next, end))
      next = end + 1
    }
    let last = next..<(next + 1_000)
    let app = try start(collector, last)
    try app.succeed("the last app")
    returned.append(last)
    try Self.waitUntilQuiet(collector)
    return try Self.tally(collector, returned: returned, kills: kills)
  }

  /// The peer under `kills` SIGKILLs of the app and `kills` of `otelcol-contrib`, in a random
  /// order at random moments, each restarted at once; the app logs at `rate` records a second.
  func peerKills(_ kills: Int, rate: Int, startAt: String, random: inout BenchRandom) throws
    -> KillTally
  {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let log = directory + "/app.log"
    let startShipper = try shipper(collector, log: log, startAt: startAt)
    let counter = try SharedCounter(path: counterPath)
    func startApp(_ range: Range<Int>) throws -> ChildProcess {
      try ChildProcess.spawn(
        ChildProcess.benchmark,
        [
          "--child", "pipeline-app", "jsonl", log, String(range.lowerBound),
          String(range.upperBound), counterPath, String(rate),
        ], output: directory + "/peer-app.out")
    }
    var shipper = try startShipper()
    usleep(1_000_000)
    var returned: [Range<Int>] = []
    var next = 0
    var app = try startApp(next..<(1 << 40))
    var victims = Array(repeating: true, count: kills) + Array(repeating: false, count: kills)
    victims.shuffle(using: &random)
    for killApp in victims {
      usleep(UInt32.random(in: 100_000...600_000, using: &random))
      if killApp {
        app.kill()
        _ = try app.wait()
        let end = Int(counter.value)
        returned.append(next..<max(next, end))
        next = end + 1
        app = try startApp(next..<(1 << 40))
      } else {
        shipper.kill()
        _ = try shipper.wait()
        shipper = try startShipper()
      }
    }
    app.kill()
    _ = try app.wait()
    let end = Int(counter.value)
    returned.append(next..<max(next, end))
    try Self.waitUntilQuiet(collector)
    shipper.kill(SIGTERM)
    _ = try shipper.wait()
    return try Self.tally(collector, returned: returned, kills: 2 * kills)
  }

  // MARK: helpers

  var counterPath: String { directory + "/returned" }

  func startStoicApp(
    _ collector: Collector, range: Range<Int>, rate: Int, output: String?
  ) throws -> ChildProcess {
    try ChildProcess.spawn(
      ChildProcess.benchmark,
      [
        "--child", "pipeline-app", "stoic", directory + "/spool", String(range.lowerBound),
        String(range.upperBound), counterPath, String(rate), collector.baseURL,
      ], output: output.map { directory + "/" + $0 })
  }

  /// Writes the peer's configuration and creates the empty log file; returns what starts an
  /// `otelcol-contrib` with it (its output in files of this run's directory).
  private func shipper(_ collector: Collector, log: String, startAt: String) throws
    -> () throws -> ChildProcess
  {
    guard let otelcol else { throw BenchError("no otelcol-contrib") }
    let config = try writeConfig(collector, log: log, startAt: startAt)
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let directory = directory
    return {
      try ChildProcess.spawn(
        otelcol, ["--config", config], output: directory + "/otelcol.out",
        errors: directory + "/otelcol.err")
    }
  }

  /// The peer's configuration: `filelog` (JSON lines parsed, the message as the body, the
  /// level as the severity) → `batch` → `otlphttp` with gzip; no telemetry of its own.
  private func writeConfig(_ collector: Collector, log: String, startAt: String) throws -> String {
    let yaml = """
      receivers:
        filelog:
          include: [\(log)]
          start_at: \(startAt)
          operators:
            - type: json_parser
              severity:
                parse_from: attributes.level
            - type: move
              from: attributes.message
              to: body
      processors:
        batch: {}
      exporters:
        otlphttp:
          endpoint: \(collector.baseURL)
          compression: gzip
      service:
        telemetry:
          logs:
            level: warn
          metrics:
            level: none
        pipelines:
          logs:
            receivers: [filelog]
            processors: [batch]
            exporters: [otlphttp]

      """
    let path = directory + "/otelcol-\(startAt).yaml"
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Waits (up to 5 minutes) until the collector holds `records` log records.
  static func waitForRecords(_ collector: Collector, _ records: Int) throws {
    let deadline = MonotonicClock.now() + 300_000_000_000
    while collector.stats.logRecords < records {
      guard MonotonicClock.now() < deadline else {
        throw BenchError(
          "pipeline: the collector holds \(collector.stats.logRecords) of \(records) records")
      }
      usleep(2_000)
    }
  }

  /// Waits until the collector's count has not changed for 3 s (at most 2 minutes).
  static func waitUntilQuiet(_ collector: Collector) throws {
    _ = try lastChangeOnceQuiet(collector)
  }

  /// Lost and duplicated records: every record the collector holds, by the sequence in its
  /// body, against the sequences whose log call returned.
  static func tally(_ collector: Collector, returned: [Range<Int>], kills: Int) throws
    -> KillTally
  {
    var copies: [Int: Int] = [:]
    for received in try collector.archive.logRecords() {
      guard case .string(let body) = received.record.body,
        let sequence = LogLine.sequence(in: body[...])
      else { continue }
      copies[sequence, default: 0] += 1
    }
    let lost = returned.reduce(0) { total, range in
      total + range.count { copies[$0] == nil }
    }
    let duplicated = copies.values.reduce(0) { $0 + max(0, $1 - 1) }
    return KillTally(
      kills: kills, returned: returned.reduce(0) { $0 + $1.count }, lost: lost,
      duplicated: duplicated)
  }

  /// The number a child printed on its standard output (0 when there is none).
  static func printedNumber(_ path: String) -> Int {
    Int(printedNumbers(path).first ?? 0)
  }

  /// The numbers a child printed, one a line.
  static func printedNumbers(_ path: String) -> [Double] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
  }
}
