import Foundation

/// The `--markdown` output: the section that leads `BENCHMARKS.md` after a default run. The
/// command, commit, machine and load (from `/proc/loadavg` at the start and at the end), then one
/// table of every figure (Stoic's median, each peer's median and the ratio, each target with
/// PASS or MISS), then every MISS again with a placeholder line for its measured bound, which
/// the person writing up the run replaces.
struct MarkdownReport {
  let machine: Machine
  let commit: String
  let runs: Int
  /// Whether this was the default run (no `--quick`, `--large`, `--scenario` or `--runs`): the
  /// heading says so.
  let isDefaultRun: Bool
  /// The command line as it was run (the executable's arguments, with the environment variables
  /// the benchmark reads), printed as the run's command.
  let command: String
  let results: [BenchResult]
  let unavailable: [(id: String, reason: String)]
  let elapsedSeconds: Double
  /// `/proc/loadavg` when the last scenario ended.
  let loadAtEnd: String

  /// The placeholder after each MISS.
  static let boundPlaceholder =
    "  - Bound: _(to write: the measured bound — a profile, a floor, or the noise of the run)_"

  func rendered() -> String {
    let targets = results.flatMap(\.targets)
    let passed = targets.filter(\.passed).count
    var lines: [String] = [
      (isDefaultRun ? "## The default run of `" : "## A run of `") + shortCommit + "`",
      "",
      "- Command: `\(command)`, commit `\(commit)`.",
      "- Machine: \(machine.cores) cores (\(machine.cpu)), \(Format.bytes(Int(machine.memoryBytes)))"
        + " RAM, \(machine.kernel), \(machine.filesystem) at `\(machine.directory)`.",
      "- Load average (`/proc/loadavg`, 1, 5 and 15 minutes): \(machine.loadAverage) at the start,"
        + " \(loadAtEnd) at the end, on \(machine.cores) cores.",
      "- The whole run took \(Format.number(elapsedSeconds)) s; each figure is the median over"
        + " \(runs) runs (replay: runs in one child process).",
      "- **\(passed) of \(targets.count) targets met.**",
      "",
      "| scenario | metric (unit) | stoic | peer | peer | stoic / peer | target | measured | result |",
      "|---|---|---:|---|---:|---:|---|---:|---|",
    ]
    for result in results {
      lines += rows(result)
    }
    for entry in unavailable {
      lines.append("| \(cell(entry.id)) | not measured: \(cell(entry.reason)) | | | | | | | |")
    }
    let misses = results.flatMap { result in
      result.targets.filter { !$0.passed }.map { (result, $0) }
    }
    if !misses.isEmpty {
      lines += ["", "### Every miss and its bound", ""]
      for (result, target) in misses {
        lines.append(
          "- **MISS** \(result.scenario) (\(result.metric)): \(target.label): \(value(of: target))")
        lines.append(Self.boundPlaceholder)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One row per peer or target of a figure (whichever are more, at least one); the scenario,
  /// metric and Stoic's median only on the first.
  private func rows(_ result: BenchResult) -> [String] {
    let count = max(1, result.peers.count, result.targets.count)
    return (0..<count).map { index in
      var cells = Array(repeating: "", count: 9)
      if index == 0 {
        cells[0] = cell(result.scenario)
        cells[1] = cell("\(result.metric) (\(result.unit))")
        cells[2] = Format.number(result.stoic.median)
      }
      if index < result.peers.count {
        let peer = result.peers[index]
        cells[3] = cell(peer.name)
        cells[4] = Format.number(peer.summary.median)
        cells[5] = Format.ratio(result.stoic.median / peer.summary.median)
      }
      if index < result.targets.count {
        let target = result.targets[index]
        cells[6] = cell(target.label)
        cells[7] = value(of: target)
        cells[8] = target.passed ? "PASS" : "**MISS**"
      }
      return "| " + cells.joined(separator: " | ") + " |"
    }
  }

  private func value(of target: TargetCheck) -> String {
    target.unit == "×" ? Format.ratio(target.value) : Format.number(target.value) + target.unit
  }

  private var shortCommit: String {
    String(commit.prefix(7)) + (commit.hasSuffix("+dirty") ? "+dirty" : "")
  }

  /// Text for a table cell: a `|` would end the cell, a newline the row.
  private func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }

  /// The command line of this process as a shell would take it, prefixed with the environment
  /// variables the benchmark reads when they are set.
  static func currentCommand() -> String {
    let environment = ProcessInfo.processInfo.environment
    let variables = ["STOIC_OTELCOL", "STOIC_BENCH_LARGE"].compactMap { name in
      environment[name].map { "\(name)=\(quoted($0))" }
    }
    let arguments = CommandLine.arguments.map(quoted)
    return (variables + arguments).joined(separator: " ")
  }

  private static func quoted(_ word: String) -> String {
    let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:+,@".contains($0) }
    return plain && !word.isEmpty
      ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
