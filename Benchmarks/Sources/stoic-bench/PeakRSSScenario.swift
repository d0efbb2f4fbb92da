/// Peak resident memory of a process logging through swift-log's `Logger`, each run in a child
/// process of its own (its `VmHWM`): Stoic's handler against swift-log's
/// `StreamLogHandler` writing to a file, at two record counts, to show the peak does not grow
/// with the records logged.
struct PeakRSSScenario: Scenario {
  let id = "peak-rss"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let counts = context.quick ? [100_000, 400_000] : [250_000, 1_000_000]
    var peaks: [String: [Int: Double]] = [:]
    // The stream handler (a write and a flush per record) only at the larger count: the peer
    // of the comparison; the flat target is Stoic's.
    for (handler, handlerCounts) in [("stoic", counts), ("stream", [counts[1]])] {
      for count in handlerCounts {
        context.progress("peak-rss \(handler) \(count) records")
        let peak = try context.inFreshDirectory(id) { directory in
          let output = directory + "/peak"
          let child = try ChildProcess.spawn(
            ChildProcess.benchmark, ["--child", "log-rss", handler, directory, String(count)],
            output: output)
          try child.succeed("the peak-rss child")
          return PipelineRun.printedNumber(output)
        }
        peaks[handler, default: [:]][count] = Double(peak)
      }
    }
    let mebibyte = Double(1 << 20)
    let large = counts[1]
    let small = counts[0]
    let stoic = peaks["stoic"]?[large] ?? .nan
    let stream = peaks["stream"]?[large] ?? .nan
    var result = BenchResult(
      scenario: id, metric: "peak-rss", unit: "MiB",
      title: "peak resident memory of a child process logging \(Format.count(large)) records "
        + "through Logger (its VmHWM)",
      stoic: Summary([stoic / mebibyte]))
    result.peers = [.init(name: "swift-log-stream-handler", summary: Summary([stream / mebibyte]))]
    let growth = (peaks["stoic"]?[large] ?? .nan) - (peaks["stoic"]?[small] ?? .nan)
    result.notes = ["stoic", "stream"].map { handler in
      "\(handler == "stoic" ? "stoic" : "swift-log-stream-handler"): "
        + counts.filter { peaks[handler]?[$0] != nil }.map {
          "\(Format.count($0)) records \(Format.bytes(Int(peaks[handler]?[$0] ?? 0)))"
        }
        .joined(separator: ", ")
    }
    result.targets = [
      TargetCheck(
        label: "stoic ≤ swift-log-stream-handler + 32 MiB", value: stoic / mebibyte,
        threshold: stream / mebibyte + 32, comparison: .atMost, unit: " MiB"),
      TargetCheck(
        label: "stoic flat: peak at \(Format.count(large)) − peak at \(Format.count(small)) "
          + "≤ 4 MiB", value: growth / mebibyte, threshold: 4, comparison: .atMost, unit: " MiB"),
    ]
    return [result]
  }
}
