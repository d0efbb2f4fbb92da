import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting

/// Log records through a ``TelemetrySpool`` (every third at the durable level, flushes
/// between), forwarded now and then by a `Forwarder` to a ``PowerCutReceiver`` in the same
/// process, which loses every fifth answer (the batch is stored, the forwarder sends it again).
///
/// Claims: the records' own (as ``TelemetryLogsWorkload``), and each batch the receiver stored,
/// with the records it held, before it acknowledged it.
///
/// After a cut the spool and the forwarder are opened again (their recovery). Every record
/// claimed durable and not delivered must still be in the spool, intact, at its sequence (a
/// batch pending in the outbox is a range of the spool). Then a drain against a receiver that
/// remembers the delivered keys must deliver everything: each record under exactly one key over
/// the whole run (no delivered batch formed again under another key, no key sent again with
/// other records), every record claimed durable delivered; and a record logged after recovery
/// is delivered too.
package struct ForwarderWorkload: PowerCutWorkload {
  package let name = "forwarder"
  package let summary =
    "log records forwarded in batches to a deduplicating receiver that loses some answers"
  package let isControl = false

  /// How many records the workload logs at most.
  static let records = 20_000

  package init() {}

  /// The spool's options: durable level `error`, small segments, no quota drops.
  var spoolOptions: TelemetryOptions {
    TelemetryOptions(
      logs: LogSpoolOptions(durableLevel: .error, byteLimit: 64 << 20, segmentSize: 256 << 10),
      metrics: MetricsOptions(flushInterval: nil, liveFileSize: 32 << 10))
  }

  /// Small batches, few formed ahead, retries that hardly wait, every delivered key remembered.
  var forwarderOptions: ForwarderOptions {
    var outbox = OutboxOptions()
    outbox.retryPolicy = RetryPolicy(
      initialDelay: .milliseconds(1), maxDelay: .milliseconds(2), maxAttempts: 4, drainBudget: 50)
    outbox.rememberedDeliveredKeys = 1 << 16
    return ForwarderOptions(maxRecords: 8, lookahead: 2, outbox: outbox)
  }

  func open(_ spool: TelemetrySpool, _ receiver: PowerCutReceiver) async throws -> Forwarder {
    let exporter = try OTLPExporter(
      configuration: OTLPExporterConfiguration(
        endpoint: "http://127.0.0.1:4318", encoding: .protobuf, compression: .none),
      transport: receiver)
    return try await Forwarder.open(spool: spool, exporter: exporter, options: forwarderOptions)
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    // The workload's process runs nothing else: its log calls and flushes may block here.
    let spool = try TelemetrySpool.open(
      at: StorePath.join(directory, "spool"), options: spoolOptions)
    let receiver = PowerCutReceiver(acknowledgements: acknowledgements, losesAnswerEvery: 5)
    let forwarder = try await open(spool, receiver)
    var random = SplitMix64(seed: seed)
    for counter in 1...Self.records {
      guard let sequence = PowerCutLogRecord.log(spool.logs, appender: 0, counter: counter)
      else { throw PowerCutError("record \(counter) was dropped") }
      if PowerCutLogRecord.level(counter: counter) >= .error {
        try acknowledgements.claim(.record(sequence: sequence, appender: 0, counter: counter))
      } else {
        try acknowledgements.claim(.written(sequence: sequence, appender: 0, counter: counter))
      }
      if counter % 16 == 0 {
        try spool.logs.flush()
        try acknowledgements.claim(.durableThrough(spool.logs.durableSequence))
      }
      if random.below(6) == 0 {
        _ = try await forwarder.drain()
      } else {
        PowerCutHost.sleep(milliseconds: 1)
      }
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    do {
      let spool = try TelemetrySpool.open(
        at: StorePath.join(directory, "spool"), options: spoolOptions)
      defer { try? spool.close() }
      // Records delivered before the cut, by the key that delivered them.
      let delivered = acknowledgements.deliveries
      var owner: [Int: String] = [:]
      for (key, counters) in delivered.sorted(by: { $0.key < $1.key }) {
        for counter in counters {
          if let other = owner[counter] {
            verdict.add("record \(counter) was delivered under \(other) and \(key)")
          }
          owner[counter] = key
        }
      }
      let found = try PowerCutLogCheck.check(
        spool.logs, acknowledgements, released: Set(owner.keys), into: &verdict)
      // A drain against a receiver that remembers what it stored.
      let receiver = PowerCutReceiver(remembering: delivered)
      let forwarder = try await open(spool, receiver)
      let report = try await forwarder.drain()
      verdict.require(report.haltedBecause == nil, "the drain halted: \(report)")
      // A number the run never reached (a record it logged may be in the spool unclaimed).
      let next = Self.records + 1
      let sequence = PowerCutLogRecord.log(spool.logs, appender: 0, counter: next)
      try spool.logs.flush()
      let last = try await forwarder.drain()
      verdict.require(last.haltedBecause == nil, "the last drain halted: \(last)")
      try await forwarder.close()
      let state = receiver.state.withLock { $0 }
      for key in state.conflicts { verdict.add("batch \(key) was sent again with other records") }
      for key in state.new {
        for counter in state.stored[key] ?? [] {
          if let other = owner[counter] {
            verdict.add("record \(counter) was delivered under \(other) and again under \(key)")
          }
          owner[counter] = key
        }
      }
      for (sequence, record) in acknowledgements.logRecords
      where record.durable || sequence <= acknowledgements.flushedThrough {
        verdict.require(
          owner[record.counter] != nil,
          "record \(record.counter) at \(sequence) was claimed durable and never delivered")
      }
      for record in found.records.values {
        verdict.require(
          owner[record.counter] != nil, "record \(record.counter) in the spool was not delivered")
      }
      verdict.require(
        sequence != nil && owner[next] != nil,
        "the record logged after recovery was not delivered")
      let before = delivered.values.reduce(0) { $0 + $1.count }
      let after = state.new.reduce(0) { $0 + (state.stored[$1]?.count ?? 0) }
      verdict.facts.append(
        "\(delivered.count) batches (\(before) records) delivered before the cut, "
          + "\(state.new.count) (\(after) records) after; \(found.records.count) records in the "
          + "spool, low-water mark \(spool.logs.lowWaterMark)")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
