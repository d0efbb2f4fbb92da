import BenchKit
import Foundation

/// Runs the selected scenarios in a directory of their own and prints the report.
struct BenchRunner {
  let options: BenchOptions

  func run() throws {
    let start = MonotonicClock.now()
    let root = try makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let context = BenchContext(
      quick: options.quick,
      large: options.large || ProcessInfo.processInfo.environment["STOIC_BENCH_LARGE"] == "1",
      runs: options.runs ?? (options.quick ? 3 : 5), root: root, otelcol: options.otelcol)
    let machine = Machine.probe(directory: root)
    let commit = StoicCommit.current()
    var results: [BenchResult] = []
    for scenario in ScenarioCatalog.selected(options, large: context.large) {
      context.progress("scenario \(scenario.id)")
      let scenarioStart = MonotonicClock.now()
      results += try scenario.run(in: context)
      context.progress(
        "scenario \(scenario.id): \(Format.number(MonotonicClock.seconds(since: scenarioStart))) s"
          + " (load \(Machine.currentLoadAverage()))")
    }
    ReplayScenario.memoryCheck(&results)
    let unavailable = ScenarioCatalog.unavailable.filter {
      options.scenario == nil || options.scenario == $0.id
    }
    if options.json {
      print(try JSONReport(machine: machine, commit: commit, results: results).encoded())
    } else if options.markdown {
      print(
        MarkdownReport(
          machine: machine, commit: commit, runs: context.runs,
          isDefaultRun: !options.quick && !context.large && options.scenario == nil
            && options.runs == nil,
          command: MarkdownReport.currentCommand(), results: results, unavailable: unavailable,
          elapsedSeconds: MonotonicClock.seconds(since: start),
          loadAtEnd: Machine.currentLoadAverage()
        ).rendered())
    } else {
      print(
        TextReport(
          machine: machine, commit: commit, runs: context.runs, quick: options.quick,
          results: results, unavailable: unavailable,
          elapsedSeconds: MonotonicClock.seconds(since: start)
        ).rendered())
    }
  }

  /// A new directory for this run: under `--directory` if given, else under `/tmp`.
  private func makeRoot() throws -> String {
    let parent = options.directory ?? NSTemporaryDirectory()
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let template = (parent as NSString).appendingPathComponent("stoic-bench-XXXXXX")
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else {
      throw BenchError("cannot create a directory under \(parent)")
    }
    return String(cString: made)
  }
}
