import StoicStore
import StoicTelemetry
import StoicTesting

/// Metrics through a ``TelemetrySpool``'s metrics spool: in each round a counter grows, a gauge
/// is set to the round's number and a histogram records one value; `flush()` follows some
/// rounds (no interval flush).
///
/// Claims: a flush that returned claims its round: every value of that round is durable.
///
/// After a cut the spool is opened as after a restart of the machine (another boot identity:
/// the live file is what the kernel wrote back, so the spool must continue every series from
/// its last synced sample). Every series must then hold the values of one round at or after
/// the claimed one (a counter never below the claimed value, the gauge never an older round,
/// the histogram never fewer observations), exactly those of a round that was reached (no
/// torn or invented value); and the spool takes an increment that survives another restart.
///
/// The control claims every round once its values are in the live file, without a flush: what
/// a crash of the process keeps (so its check opens the spool as in the same boot, adopting the
/// live file), and what a power cut loses: the live file on the cut's image is only what the
/// kernel wrote back, and writeback was held back. Its claims must show losses.
package struct TelemetryMetricsWorkload: PowerCutWorkload {
  package let name: String
  package let summary: String
  /// The control: rounds are claimed from the live file, without a flush.
  let claimsLiveValues: Bool

  package var isControl: Bool { claimsLiveValues }

  /// How many rounds the workload makes at most.
  static let rounds = 20_000

  init(name: String, summary: String, claimsLiveValues: Bool = false) {
    self.name = name
    self.summary = summary
    self.claimsLiveValues = claimsLiveValues
  }

  /// The options; `restart` plays a restart of the machine with a boot identity of its own
  /// (the control's check never does: it trusts the live file as a crash of the process may).
  func options(restart: UInt8?) -> TelemetryOptions {
    var metrics = MetricsOptions(flushInterval: nil, liveFileSize: 32 << 10)
    let restart = claimsLiveValues ? nil : restart
    if let restart, let boot = metrics.bootIdentity {
      metrics.bootIdentity = boot.map { $0 ^ restart }
    } else if let restart {
      metrics.bootIdentity = Array(repeating: restart, count: 16)
    }
    return TelemetryOptions(logs: LogSpoolOptions(durableLevel: nil), metrics: metrics)
  }

  /// The workload's series.
  struct Series {
    let counter: CounterSeries
    let gauge: GaugeSeries
    let histogram: HistogramSeries

    init(_ metrics: MetricsSpool) {
      counter = metrics.counter(label: "powercut.requests", dimensions: [("route", "/upload")])
      gauge = metrics.gauge(label: "powercut.round")
      histogram = metrics.histogram(label: "powercut.size", bounds: [1, 4, 16])
    }
  }

  /// How much the counter grows in round `round`.
  package static func increment(_ round: Int) -> Int64 { Int64(1 + round % 7) }

  /// The value the histogram records in round `round`.
  package static func observation(_ round: Int) -> Double { Double(round % 20) }

  /// The values after round `round`: the counter's and the histogram's count and sum, in
  /// closed form (a claim read back may name any round).
  package static func values(after round: Int) -> (counter: Int64, count: UInt64, sum: Double) {
    let round = max(round, 0)
    /// The sum of `i % period` for `i` in 1…round.
    func sumOfRemainders(_ period: Int) -> Int64 {
      let whole = Int64(round / period)
      let rest = Int64(round % period)
      return whole * Int64(period * (period - 1) / 2) + rest * (rest + 1) / 2
    }
    return (Int64(round) + sumOfRemainders(7), UInt64(round), Double(sumOfRemainders(20)))
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let spool = try TelemetrySpool.open(
      at: StorePath.join(directory, "spool"), options: options(restart: nil))
    let series = Series(spool.metrics)
    var random = SplitMix64(seed: seed)
    for round in 1...Self.rounds {
      series.counter.increment(by: Self.increment(round))
      series.gauge.set(Double(round))
      series.histogram.record(Self.observation(round))
      if claimsLiveValues {
        try acknowledgements.claim(.metricsRound(round))
        if round % 4 == 0 { PowerCutHost.sleep(milliseconds: 1) }
      } else if random.below(3) == 0 {
        try spool.metrics.flush()
        try acknowledgements.claim(.metricsRound(round))
      } else {
        PowerCutHost.sleep(milliseconds: 1)
      }
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    let root = StorePath.join(directory, "spool")
    let claimed = acknowledgements.metricsRound
    do {
      let spool = try TelemetrySpool.open(at: root, options: options(restart: 0x5A))
      let series = Series(spool.metrics)
      let gauge = series.gauge.value
      let round = Int(exactly: gauge) ?? -1
      verdict.require(
        round >= claimed && round <= Self.rounds,
        "the gauge holds \(gauge) after recovery; round \(claimed) was claimed flushed")
      // The counter and the histogram are those of one round reached, at or after the claim.
      let counter = series.counter.value
      let histogram = series.histogram.value
      let histogramRound = Int(histogram.count)
      verdict.require(
        histogramRound >= claimed && histogramRound <= Self.rounds,
        "the histogram holds \(histogram.count) values; round \(claimed) was claimed flushed")
      if histogramRound >= 0 && histogramRound <= Self.rounds {
        let expected = Self.values(after: histogramRound)
        verdict.require(
          histogram.sum == expected.sum,
          "the histogram's sum \(histogram.sum) is not that of its \(histogramRound) values")
      }
      let claimedCounter = Self.values(after: claimed).counter
      verdict.require(
        counter >= claimedCounter,
        "the counter holds \(counter) after recovery, below the \(claimedCounter) of the "
          + "claimed round \(claimed)")
      if round >= 0 && round <= Self.rounds {
        verdict.require(
          counter == Self.values(after: round).counter
            || counter == Self.values(after: histogramRound).counter,
          "the counter holds \(counter), the value of no round reached")
      }
      verdict.facts.append(
        "round \(round) found (counter \(counter), \(histogram.count) observations); round "
          + "\(claimed) claimed flushed; \(spool.metrics.recovery.rebuiltReason ?? "adopted")")
      // The spool takes an increment that survives another restart.
      series.counter.increment(by: 1000)
      try spool.metrics.flush()
      try spool.close()
      let reopened = try TelemetrySpool.open(at: root, options: options(restart: 0xA5))
      defer { try? reopened.close() }
      let after = Series(reopened.metrics).counter.value
      verdict.require(
        after == counter + 1000,
        "the counter holds \(after) after an increment of 1000 from \(counter) and a restart")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
