import BenchKit
import Foundation
import StoicCollector

/// The swift-otel contender: the executable of the package `Benchmarks/SwiftOTelPeer` (built
/// apart, so that neither the library nor this benchmark depends on swift-otel), run as a child
/// process for each figure, exporting with OTLP/HTTP protobuf to an example collector this
/// process starts on 127.0.0.1. Two configurations: swift-otel's defaults (peer `swift-otel`)
/// and its batch processors raised as a tuned user would (`swift-otel-tuned`).
struct SwiftOTelPeer {
  /// What one timed loop of the peer printed.
  struct Timing {
    let perSecond: Double
    let latency: LatencyPercentiles
    let allocationsPerCall: Double
  }

  /// The configurations and the peer names they are reported under.
  static let configurations = [("default", "swift-otel"), ("tuned", "swift-otel-tuned")]

  /// The two configurations, for a result's notes.
  static let configurationNote =
    "swift-otel 1.5.0 (Benchmarks/SwiftOTelPeer), OTel.bootstrap as its README shows, OTLP/HTTP "
    + "protobuf without compression to the example collector on 127.0.0.1, one signal enabled; "
    + "swift-otel: its defaults (logs: a batch of at most 512 every 1 s, at most 2,048 queued, "
    + "the rest dropped); swift-otel-tuned: batches of 8,192 every 200 ms, 262,144 queued "
    + "(logs and spans)"

  /// How to build it, for the note of a figure it could not run for.
  static let buildHint =
    "swift-otel peer not built: cd Benchmarks/SwiftOTelPeer && ../../../shared/vendor/use-mirrors "
    + ". && ../../../shared/vendor-peers/use-mirrors . && swift build -c release (or set "
    + "STOIC_SWIFT_OTEL_PEER to its executable)"

  let executable: String

  /// The peer's executable: `STOIC_SWIFT_OTEL_PEER`, else the release build beside this
  /// benchmark's package; `nil` when it is not there.
  static func locate() -> SwiftOTelPeer? {
    if let path = ProcessInfo.processInfo.environment["STOIC_SWIFT_OTEL_PEER"] {
      return FileManager.default.isExecutableFile(atPath: path)
        ? SwiftOTelPeer(executable: path) : nil
    }
    // stoic-bench is in Benchmarks/.build/<triple>/release/: the peer's package is a sibling
    // of that .build.
    var directory = URL(fileURLWithPath: ChildProcess.benchmark).deletingLastPathComponent()
    for _ in 0..<5 {
      let path = directory.appendingPathComponent("SwiftOTelPeer/.build/release/swift-otel-peer")
        .path
      if FileManager.default.isExecutableFile(atPath: path) {
        return SwiftOTelPeer(executable: path)
      }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  /// Runs the timed loop `mode` (`log-record`, `metric-increment`, `span`) of `count` calls in
  /// `configuration`, exporting into a collector in `directory`.
  func time(_ mode: String, configuration: String, count: Int, in directory: String) throws
    -> Timing
  {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let output = directory + "/swift-otel-\(mode).out"
    let child = try ChildProcess.spawn(
      executable, [mode, configuration, collector.baseURL, String(count)], output: output,
      errors: directory + "/swift-otel-\(mode).err")
    let exit = try child.wait()
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard exit.code == 0,
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("{") }),
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let perSecond = object["per_second"] as? Double, let p50 = object["p50"] as? Double,
      let p99 = object["p99"] as? Double, let p999 = object["p999"] as? Double,
      let allocations = object["allocations"] as? Double
    else {
      let errors =
        (try? String(contentsOfFile: directory + "/swift-otel-\(mode).err", encoding: .utf8)) ?? ""
      throw BenchError(
        "swift-otel peer \(mode) \(configuration): exit \(exit.code.map(String.init) ?? "by signal \(exit.signal)"), "
          + "output \(text.prefix(300)) \(errors.prefix(300))")
    }
    return Timing(
      perSecond: perSecond, latency: LatencyPercentiles(p50: p50, p99: p99, p999: p999),
      allocationsPerCall: allocations)
  }

  /// Starts the pipeline's app in `configuration`: `START..<END` at `rate` a second into
  /// `endpoint`, the returned calls in the counter file `counter`.
  func startApp(
    configuration: String, endpoint: String, range: Range<Int>, counter: String, rate: Int,
    output: String
  ) throws -> ChildProcess {
    try ChildProcess.spawn(
      executable,
      [
        "pipeline-app", configuration, endpoint, String(range.lowerBound),
        String(range.upperBound), counter, String(rate),
      ], output: output, errors: output + ".err")
  }
}
