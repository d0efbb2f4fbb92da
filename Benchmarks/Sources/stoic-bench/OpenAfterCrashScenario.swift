import BenchKit
import Foundation
import StoicStore
import StoicTelemetry

/// `TelemetrySpool.open` after its writer was SIGKILLed mid-append: a child process logs a
/// backlog (64 MiB by default, 1 GiB with `--large`) through a `Logger` into a spool and is
/// killed while it goes on logging; then, for each run, a new writer opens the spool, logs, and
/// is killed at a random moment, and this process times the open that recovers it. After the
/// last run every record whose log call returned must be readable (counted).
struct OpenAfterCrashScenario: Scenario {
  let id = "open-after-crash"

  /// The spool's options: room for the backlog and the writers after it.
  static let options = TelemetryOptions(logs: LogSpoolOptions(byteLimit: 4 << 30))

  func run(in context: BenchContext) throws -> [BenchResult] {
    let backlogBytes = context.large ? 1 << 30 : (context.quick ? 16 << 20 : 64 << 20)
    let recordBytes = ForwardingRun.recordBytes + 16
    let backlogRecords = backlogBytes / recordBytes
    var random = BenchRandom(seed: 27)
    return try context.inFreshDirectory(id) { directory in
      let spool = directory + "/spool"
      let counterPath = directory + "/returned"
      var opens: [Double] = []
      var cleanOpens: [Double] = []
      for run in 0...context.runs {
        let readyAfter = run == 0 ? backlogRecords : 1
        context.progress(
          run == 0
            ? "open-after-crash: writing a backlog of \(Format.bytes(backlogBytes))"
            : "open-after-crash run \(run)/\(context.runs)")
        let ready = directory + "/ready-\(run)"
        let writer = try ChildProcess.spawn(
          ChildProcess.benchmark,
          ["--child", "spool-writer", spool, String(readyAfter), counterPath], output: ready)
        try Self.waitForReady(ready, writer: writer)
        usleep(UInt32.random(in: 20_000...200_000, using: &random))
        writer.kill()
        _ = try writer.wait()
        let start = MonotonicClock.now()
        let opened = try TelemetrySpool.open(at: spool, options: Self.options)
        let seconds = MonotonicClock.seconds(since: start)
        try opened.close()
        // The same spool opened again after a clean close: what an open costs without a crash.
        let cleanStart = MonotonicClock.now()
        let reopened = try TelemetrySpool.open(at: spool, options: Self.options)
        let cleanSeconds = MonotonicClock.seconds(since: cleanStart)
        try reopened.close()
        if run > 0 {
          opens.append(seconds * 1000)
          cleanOpens.append(cleanSeconds * 1000)
        }
      }
      let returned = try SharedCounter(path: counterPath).value
      context.progress("open-after-crash: counting the records")
      let opened = try TelemetrySpool.open(at: spool, options: Self.options)
      var readable = 0
      let line = LogLine()
      let summary = try opened.logs.forEachRecord { entry in
        if entry.record?.label == line.label { readable += 1 }
      }
      try opened.close()
      let spooled = Self.directoryBytes(spool)
      var result = BenchResult(
        scenario: id, metric: "open-after-crash", unit: "ms",
        title: "TelemetrySpool.open after the writer's SIGKILL mid-append, a backlog of "
          + "\(Format.bytes(backlogBytes)) of records (\(Format.bytes(spooled)) on disk, sealed "
          + "segments compressed)",
        stoic: Summary(opens))
      result.peers = [.init(name: "open-after-clean-close", summary: Summary(cleanOpens))]
      result.notes = [
        "log calls that returned over all writers: \(Format.count(Int(returned))); records "
          + "readable after the last kill: \(Format.count(readable)) "
          + "(unreadable \(summary.unreadable))"
      ]
      result.targets = [
        TargetCheck(
          label: "stoic median ≤ 20 ms", value: result.stoic.median, threshold: 20,
          comparison: .atMost, unit: " ms"),
        TargetCheck(
          label: "records whose call returned and are not readable = 0",
          value: Double(max(0, Int(returned) - readable)), threshold: 0, comparison: .atMost,
          unit: ""),
      ]
      return [result]
    }
  }

  /// Waits (up to 10 minutes) until the writer has printed `ready`.
  private static func waitForReady(_ path: String, writer: ChildProcess) throws {
    let deadline = MonotonicClock.now() + 600_000_000_000
    while MonotonicClock.now() < deadline {
      if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("ready") {
        return
      }
      usleep(5_000)
    }
    writer.kill()
    _ = try? writer.wait()
    throw BenchError("open-after-crash: the writer never became ready")
  }

  /// The bytes of the files under `path`.
  static func directoryBytes(_ path: String) -> Int {
    guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
    var total = 0
    while let name = walker.nextObject() as? String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
      if attributes?[.type] as? FileAttributeType == .typeRegular {
        total += (attributes?[.size] as? Int) ?? 0
      }
    }
    return total
  }
}
