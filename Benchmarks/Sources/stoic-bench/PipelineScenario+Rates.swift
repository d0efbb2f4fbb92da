import BenchKit
import Foundation

/// The pipeline side by side with swift-otel: the app logging at 1,000, 10,000 and 100,000
/// records a second and as fast as it can, for a fixed time, then stopped with SIGTERM; and
/// SIGKILLed at random moments. Stoic (its forwarder in the app) against swift-otel's batch
/// exporter with its defaults and tuned (``SwiftOTelPeer``).
extension PipelineScenario {
  /// The offered rates, records a second (0: as fast as the app logs).
  static let offeredRates = [1_000, 10_000, 100_000, 0]

  /// The rate's name in a metric: `1000`, …, `max`.
  static func rateName(_ rate: Int) -> String { rate == 0 ? "max" : String(rate) }

  /// Every contender at every offered rate, `seconds` each; by contender, by rate.
  func ratedRuns(in context: BenchContext, peer: SwiftOTelPeer?, seconds: Double) throws
    -> [String: [Int: PipelineRun.RateTally]]
  {
    var tallies: [String: [Int: PipelineRun.RateTally]] = [:]
    for rate in Self.offeredRates {
      context.progress("pipeline: stoic at \(Self.rateName(rate)) records/s for \(seconds) s")
      tallies["stoic", default: [:]][rate] = try context.inFreshDirectory(id) { directory in
        let run = PipelineRun(directory: directory, otelcol: nil)
        return try run.rated(rate: rate, seconds: seconds) { collector, range, rate in
          try run.startStoicApp(collector, range: range, rate: rate, output: "stoic-app.out")
        }
      }
      for (configuration, name) in SwiftOTelPeer.configurations {
        guard let peer else { continue }
        context.progress("pipeline: \(name) at \(Self.rateName(rate)) records/s for \(seconds) s")
        tallies[name, default: [:]][rate] = try context.inFreshDirectory(id) { directory in
          let run = PipelineRun(directory: directory, otelcol: nil)
          return try run.rated(rate: rate, seconds: seconds) { collector, range, rate in
            try peer.startApp(
              configuration: configuration, endpoint: collector.baseURL, range: range,
              counter: run.counterPath, rate: rate, output: directory + "/swift-otel-app.out")
          }
        }
      }
    }
    return tallies
  }

  /// swift-otel's app SIGKILLed `kills` times at random moments at the kill rate, in each
  /// configuration.
  func swiftOTelKills(
    in context: BenchContext, peer: SwiftOTelPeer?, kills: Int, random: inout BenchRandom
  ) throws -> [String: PipelineRun.KillTally] {
    var tallies: [String: PipelineRun.KillTally] = [:]
    for (configuration, name) in SwiftOTelPeer.configurations {
      guard let peer else { continue }
      context.progress("pipeline: \(kills) kills of the \(name) app")
      tallies[name] = try context.inFreshDirectory(id) { directory in
        let run = PipelineRun(directory: directory, otelcol: nil)
        return try run.appKills(kills, random: &random) { collector, range in
          try peer.startApp(
            configuration: configuration, endpoint: collector.baseURL, range: range,
            counter: run.counterPath, rate: Self.killRate,
            output: directory + "/swift-otel-app.out")
        }
      }
    }
    return tallies
  }

  /// The figures of the rated runs: records lost at each rate, and the delivered rate and CPU
  /// per million delivered when the app logs as fast as it can.
  func rateResults(
    _ tallies: [String: [Int: PipelineRun.RateTally]], seconds: Double, peer: SwiftOTelPeer?
  ) -> [BenchResult] {
    let names = ["stoic"] + SwiftOTelPeer.configurations.map(\.1)
    let setUp =
      "the app logs through swift-log (60-byte message, 3 metadata pairs) for "
      + "\(Format.number(seconds)) s, then gets SIGTERM (it stops logging and drains or "
      + "flushes); counted at the example collector once it is quiet for 3 s"
    let peerNote = peer == nil ? SwiftOTelPeer.buildHint : SwiftOTelPeer.configurationNote
    func figure(
      _ metric: String, unit: String, title: String, rate: Int,
      _ value: (PipelineRun.RateTally) -> Double
    ) -> BenchResult {
      var result = BenchResult(
        scenario: id, metric: metric, unit: unit, title: title + "; " + setUp,
        stoic: Summary(tallies["stoic"]?[rate].map { [value($0)] } ?? []))
      result.peers = names.dropFirst().compactMap { name in
        tallies[name]?[rate].map { .init(name: name, summary: Summary([value($0)])) }
      }
      result.notes =
        names.compactMap { name in
          tallies[name]?[rate].map {
            "\(name): \(Format.count($0.returned)) calls returned, \(Format.count($0.delivered)) "
              + "delivered, \(Format.count($0.lost)) lost, in \(Format.number($0.seconds)) s, "
              + "CPU \(Format.number($0.cpuSeconds)) s"
          }
        } + [peerNote]
      return result
    }
    var results = Self.offeredRates.map { rate in
      var result = figure(
        "lost-at-rate-\(Self.rateName(rate))", unit: "records",
        title: "records lost (log calls returned, not delivered) at "
          + (rate == 0 ? "the app's full speed" : "\(Format.count(rate)) records/s offered"),
        rate: rate
      ) { Double($0.lost) }
      result.targets = [
        TargetCheck(
          label: "stoic lost-at-rate-\(Self.rateName(rate)) = 0", value: result.stoic.median,
          threshold: 0, comparison: .atMost, unit: "")
      ]
      return result
    }
    results.append(
      figure(
        "delivered-at-rate-max", unit: "records/s",
        title: "records per second delivered end to end at the app's full speed (delivered ÷ "
          + "the time from the app's start to the last arrival)", rate: 0
      ) { $0.deliveredPerSecond })
    results.append(
      figure(
        "cpu-per-million-delivered-at-rate-max", unit: "CPU s",
        title: "CPU seconds of the app (its exporter or forwarder in it) per million records "
          + "delivered, at the app's full speed", rate: 0
      ) { $0.cpuSecondsPerMillionDelivered })
    return results
  }
}
