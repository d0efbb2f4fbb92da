import StoicCollector
import StoicForwarding
import StoicStore
import StoicTelemetry

/// The end-to-end demo `stoic demo` runs: a spool written through an outage, forwarded to the
/// example collector on loopback through a crash of the sender and a lost answer, then compared
/// record by record with what the collector holds. On the main actor: the spool's blocking
/// calls run on the main thread, never on a thread of Swift's cooperative pool.
@MainActor
struct ForwardingDemo {
  /// Where the spool and the collector's data live.
  let directory: String
  /// Where the demo tells what happens.
  let say: @Sendable (String) -> Void

  /// Log records written before and during the outage.
  static let firstRecords = 500
  static let outageRecords = 250
  /// The label of the demo's records.
  static let label = "demo"

  /// What came out of it.
  struct Outcome: Sendable {
    var written = 0
    var delivered = 0
    var duplicatesAtCollector = 0
    var duplicatesSuppressed = 0
    var lost = 0
  }

  /// The forwarder options of the demo: batches of 100, quick retries.
  static func options(maxAttempts: Int) -> ForwarderOptions {
    var outbox = OutboxOptions()
    outbox.retryPolicy = RetryPolicy(
      initialDelay: .milliseconds(50), maxDelay: .milliseconds(400), maxAttempts: maxAttempts,
      drainBudget: 20, maxRetryAfter: .seconds(5))
    return ForwarderOptions(
      maxRecords: 100, resourceAttributes: [("service.name", "stoic-demo")], outbox: outbox)
  }

  /// Runs the demo.
  ///
  /// - Throws: `StoreError` from the spool or the forwarder's outbox, ``CollectorError`` from
  ///   the collector, ``ForwardingError`` from the exporter's configuration.
  func run() async throws -> Outcome {
    let spoolDirectory = StorePath.join(directory, "spool")
    let collectorDirectory = StorePath.join(directory, "collector")
    say("Stoic demo: logs and metrics forwarded exactly once through an outage, a crash and a")
    say("lost answer")
    say("  spool:     \(spoolDirectory)")
    say("  collector: \(collectorDirectory) (its journal of received batches)")
    say("")

    // An ephemeral loopback port for the collector, which is down to begin with.
    let probe = try await Collector.start(CollectorOptions(dataDirectory: collectorDirectory))
    let port = probe.port
    try await probe.stop()
    let endpoint = "http://127.0.0.1:\(port)"

    // Metrics are sampled when the demo flushes, not on a timer, so the spool holds still once
    // drained.
    var spoolOptions = TelemetryOptions()
    spoolOptions.metrics.flushInterval = nil
    let spool = try TelemetrySpool.open(at: spoolDirectory, options: spoolOptions)
    let written = SleepingLock(0)
    func write(_ count: Int) {
      let records = spool.metrics.counter(label: "demo.records_written")
      let sizes = spool.metrics.histogram(label: "demo.record_bytes")
      for _ in 0..<count {
        let seq = written.withLock { value -> Int in
          defer { value += 1 }
          return value
        }
        let message = "order \(seq) processed"
        spool.logs.log(
          level: seq % 50 == 0 ? .warning : .info, label: Self.label, message: message,
          metadata: ["seq": .stringConvertible(String(seq)), "shard": .string("s\(seq % 4)")])
        records.increment()
        sizes.record(Double(message.utf8.count))
      }
    }

    say("1. the collector is down: write \(Self.firstRecords) log records and metrics")
    write(Self.firstRecords)
    try spool.flush()
    let exporter = try OTLPExporter(configuration: OTLPExporterConfiguration(endpoint: endpoint))
    var forwarder = try await Forwarder.open(
      spool: spool, exporter: exporter, options: Self.options(maxAttempts: 2))
    let outage = try await forwarder.drain()
    say("   forwarding: \(outage.attempts) attempts, \(outage.haltedBecause ?? "done")")
    say("   \(await forwarder.pending.count) batches wait in the outbox, as ranges of the spool")
    say("2. still down: \(Self.outageRecords) more records")
    write(Self.outageRecords)
    try spool.flush()
    try await forwarder.close()

    say("3. the collector comes up on \(endpoint): its first answer is 503 with Retry-After: 1,")
    say("   and the answer to the first batch it stores is lost on the way back")
    let faults = CollectorFaults(failFirst: 1, retryAfter: "1", dropFirstResponses: 1)
    let collector = try await Collector.start(
      CollectorOptions(dataDirectory: collectorDirectory, port: port, faults: faults))
    let crashing = CrashingTransport(DefaultTransport(), crashAfter: 3)
    forwarder = try await Forwarder.open(
      spool: spool,
      exporter: try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: endpoint), transport: crashing),
      options: Self.options(maxAttempts: 3))
    say("4. forwarding; the sender crashes right after the collector stores its third batch")
    let beforeCrash = try await forwarder.drain()
    try await forwarder.close()
    say("   \(beforeCrash.batchesDelivered) batches acknowledged, \(beforeCrash.attempts) attempts")
    say("   crashed: \(crashing.crashed); the batch in flight is still in the outbox")

    say("5. restart: the outbox resends the batch in flight under the same key")
    forwarder = try await Forwarder.open(
      spool: spool, exporter: exporter, options: Self.options(maxAttempts: 5))
    var afterRestart = try await forwarder.drain()
    // Until a drain finds nothing new (the spool's own events, a last metrics sample).
    for _ in 0..<5 where afterRestart.haltedBecause == nil {
      try spool.flush()
      let more = try await forwarder.drain()
      afterRestart.add(more)
      if more.batchesFormed == 0 { break }
    }
    say(
      "   \(afterRestart.batchesDelivered) batches delivered, \(afterRestart.attempts) attempts, "
        + "\(afterRestart.recordsDelivered) records and data points")
    try await forwarder.close()
    // Every record the demo wrote has left the spool (the spool's own events may follow).
    let spoolEmpty = try spool.logs.entries(from: spool.logs.lowWaterMark + 1).allSatisfy {
      $0.record?.label == LogSpool.eventLabel
    }
    try spool.close()

    let outcome = try compare(collector: collector, written: written.withLock { $0 })
    let stats = collector.stats
    try await collector.stop()
    let attempts = outage.attempts + beforeCrash.attempts + afterRestart.attempts
    let batches = beforeCrash.batchesDelivered + afterRestart.batchesDelivered
    say("")
    say("report")
    say("  records written:          \(outcome.written) log records (and their metrics)")
    say("  batches delivered:        \(batches), in \(attempts) attempts")
    say("  retries:                  \(attempts - batches)")
    say(
      "  received by the collector: \(stats.logRecords) log records, \(stats.dataPoints) data points"
    )
    say("  duplicates suppressed by the collector: \(outcome.duplicatesSuppressed)")
    say("  records delivered twice:  \(outcome.duplicatesAtCollector)")
    say("  records lost:             \(outcome.lost) (compared record by record)")
    say("  spool emptied:            \(spoolEmpty)")
    say("  spool: \(spoolDirectory)")
    say("  collector data: \(collectorDirectory)")
    return outcome
  }

  /// Compares what was written with what the collector holds, by `seq`.
  func compare(collector: Collector, written: Int) throws -> Outcome {
    var seen: [Int: Int] = [:]
    for received in try collector.archive.logRecords() {
      guard case .string(Self.label)? = received.record.attribute("log.label"),
        case .string(let text)? = received.record.attribute("seq"), let seq = Int(text)
      else { continue }
      seen[seq, default: 0] += 1
    }
    var outcome = Outcome()
    outcome.written = written
    for seq in 0..<written {
      if let count = seen[seq] {
        outcome.delivered += 1
        outcome.duplicatesAtCollector += count - 1
      } else {
        outcome.lost += 1
      }
    }
    outcome.duplicatesSuppressed = collector.stats.duplicatesSuppressed
    return outcome
  }
}

/// The demo's stand-in for a sender killed mid-forwarding: passes requests to the real
/// transport until the receiver has accepted `crashAfter` of them; the last of those it
/// reports as lost (the receiver stored the batch, the sender never heard), and from then on
/// it is dead: nothing more leaves, as after a kill. What the forwarder left on disk is what a
/// kill at that moment leaves.
final class CrashingTransport: Transport {
  private let inner: any Transport
  private let crashAfter: Int
  private let accepted = SleepingLock(0)

  init(_ inner: any Transport, crashAfter: Int) {
    self.inner = inner
    self.crashAfter = crashAfter
  }

  /// Whether the simulated crash has happened.
  var crashed: Bool { accepted.withLock { $0 >= crashAfter } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    guard !crashed else { throw .network("the sender is down (simulated crash)") }
    let response = try await inner.send(request)
    let count = accepted.withLock { count -> Int in
      if (200..<300).contains(response.status) { count += 1 }
      return count
    }
    if count >= crashAfter { throw .network("the sender crashed before the answer (simulated)") }
    return response
  }
}
