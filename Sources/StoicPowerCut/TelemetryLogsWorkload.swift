import Foundation
import StoicStore
@_spi(Testing) import StoicTelemetry
import StoicTesting

/// Log records through a ``TelemetrySpool``'s log spool from two threads: every third at the
/// durable level (the call returns once it is synced, the sync shared with the other thread),
/// the others below it, with `flush()` calls between them, in small segments (so rolls happen
/// inside the run).
///
/// Claims: a record at the durable level claims itself once its call returned; a record below
/// it only says which record its sequence holds; a flush claims everything up to
/// ``RecordSpool/durableSequence`` read after it returned. After a cut the spool is opened again
/// (its recovery): every claimed record is there at its sequence, every record read back is
/// intact and in order, nothing is missing below a flush's claim, and the spool takes a
/// durable record that survives another reopen.
///
/// The control logs under the `noDurableSync` mutation (records at the durable level return
/// without waiting for their sync) and never flushes: its claims must show losses.
package struct TelemetryLogsWorkload: PowerCutWorkload {
  package let name: String
  package let summary: String
  /// The control: durable-level records are not synced before their call returns.
  let skipsDurableSync: Bool

  package var isControl: Bool { skipsDurableSync }

  /// How many threads log.
  static let appenders = 2
  /// How many records one thread logs at most, so the volume stays bounded.
  static let recordsPerThread = 20_000

  init(name: String, summary: String, skipsDurableSync: Bool = false) {
    self.name = name
    self.summary = summary
    self.skipsDurableSync = skipsDurableSync
  }

  /// The spool's options: durable level `error`, small segments, no quota drops within the
  /// workload's volume, metrics flushed only on close. The control's background sync is an hour
  /// away.
  func options(mutated: Bool) -> TelemetryOptions {
    var logs = LogSpoolOptions(
      durableLevel: .error, maxDelay: skipsDurableSync ? .seconds(3600) : .milliseconds(100),
      byteLimit: 64 << 20, segmentSize: 256 << 10)
    if mutated && skipsDurableSync { logs.mutations = .noDurableSync }
    return TelemetryOptions(
      logs: logs, metrics: MetricsOptions(flushInterval: nil, liveFileSize: 32 << 10))
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let spool = try TelemetrySpool.open(
      at: StorePath.join(directory, "spool"), options: options(mutated: true))
    try PowerCutAppenders.run(Self.appenders) { appender in
      try log(spool.logs, appender: appender, acknowledgements, seed: seed)
    }
  }

  /// One thread's records and flushes.
  private func log(
    _ logs: LogSpool, appender: Int, _ acknowledgements: PowerCutAcknowledgementWriter,
    seed: UInt64
  ) throws {
    var random = SplitMix64(seed: SplitMix64.mix(seed, appender))
    let flushEvery = 8 + random.below(24)
    for counter in 1...Self.recordsPerThread {
      guard let sequence = PowerCutLogRecord.log(logs, appender: appender, counter: counter)
      else { throw PowerCutError("record \(appender)/\(counter) was dropped") }
      if PowerCutLogRecord.level(counter: counter) >= .error {
        try acknowledgements.claim(
          .record(sequence: sequence, appender: appender, counter: counter))
      } else {
        try acknowledgements.claim(
          .written(sequence: sequence, appender: appender, counter: counter))
      }
      // Records that do not wait for a sync are paced, so the volume stays small: a debug
      // build's recovery reads it all.
      if skipsDurableSync || counter % 3 == 1 { PowerCutHost.sleep(milliseconds: 1) }
      if !skipsDurableSync && counter % flushEvery == 0 {
        try logs.flush()
        try acknowledgements.claim(.durableThrough(logs.durableSequence))
      }
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    let root = StorePath.join(directory, "spool")
    do {
      let spool = try TelemetrySpool.open(at: root, options: options(mutated: false))
      let found = try PowerCutLogCheck.check(spool.logs, acknowledgements, into: &verdict)
      let claimed = acknowledgements.logRecords.values.filter(\.durable).count
      verdict.facts.append(
        "\(found.records.count) records and \(found.others) events found through "
          + "\(found.lastSequence); \(claimed) durable records and durable through "
          + "\(acknowledgements.flushedThrough) claimed")
      // The spool takes a durable record, and keeps it across another reopen.
      let sequence = PowerCutLogRecord.log(spool.logs, appender: 9, counter: 3)
      try spool.close()
      let reopened = try TelemetrySpool.open(at: root, options: options(mutated: false))
      defer { try? reopened.close() }
      let entry = try sequence.flatMap { (sequence) throws(StoreError) in
        try reopened.logs.entries(from: sequence, through: sequence).first
      }
      verdict.require(
        entry?.record.map(PowerCutLogRecord.identify) == .app(appender: 9, counter: 3),
        "the record logged after recovery (\(sequence.map(String.init) ?? "dropped")) is not "
          + "there after another reopen")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
