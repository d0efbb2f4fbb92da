/// The human-readable report: machine, commit, then one table per result with its targets.
struct TextReport {
  let machine: Machine
  let commit: String
  let runs: Int
  let quick: Bool
  let results: [BenchResult]
  let unavailable: [(id: String, reason: String)]
  let elapsedSeconds: Double

  func rendered() -> String {
    var lines: [String] = [
      "stoic-bench\(quick ? " --quick" : "")  commit \(commit)",
      "machine: \(machine.cores) cores, \(machine.cpu), \(Format.bytes(Int(machine.memoryBytes))) "
        + "RAM, \(machine.kernel), \(machine.filesystem) at \(machine.directory)",
      "load average at start: \(machine.loadAverage)",
      "each figure: min / median / max over \(runs) runs (replay: runs in one child process)",
      "",
    ]
    for result in results {
      lines += table(result)
      lines.append("")
    }
    for entry in unavailable {
      lines.append("\(entry.id): \(entry.reason)")
    }
    let passed = results.flatMap(\.targets).filter(\.passed).count
    let total = results.flatMap(\.targets).count
    lines.append("")
    lines.append(
      "targets: \(passed) of \(total) met; whole run \(Format.number(elapsedSeconds)) s; "
        + "load average at end: \(Machine.currentLoadAverage())")
    return lines.joined(separator: "\n")
  }

  private func table(_ result: BenchResult) -> [String] {
    var lines = [
      "[\(result.scenario)] \(result.metric) (\(result.unit)): \(result.title)",
      row("", "min", "median", "max"),
      row("stoic", result.stoic),
    ]
    for peer in result.peers {
      lines.append(row(peer.name, peer.summary))
    }
    if let latency = result.latency {
      lines.append(
        "  stoic latency per call: p50 \(Format.number(latency.p50)) ns, "
          + "p99 \(Format.number(latency.p99)) ns, p999 \(Format.number(latency.p999)) ns")
    }
    for peer in result.peers {
      lines.append(
        "  stoic / \(peer.name): \(Format.ratio(result.stoic.median / peer.summary.median))")
    }
    for note in result.notes {
      lines.append("  " + note)
    }
    for target in result.targets {
      let value =
        target.unit == "×" ? Format.ratio(target.value) : Format.number(target.value) + target.unit
      lines.append("  target \(target.label): \(value)  \(target.passed ? "PASS" : "MISS")")
    }
    return lines
  }

  private func row(_ name: String, _ summary: Summary) -> String {
    row(
      name, Format.number(summary.min), Format.number(summary.median), Format.number(summary.max))
  }

  private func row(_ name: String, _ a: String, _ b: String, _ c: String) -> String {
    "  " + padded(name, 20) + [a, b, c].map { leftPadded($0, 14) }.joined()
  }

  private func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  private func leftPadded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
