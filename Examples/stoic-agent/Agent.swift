import StoicForwarding
import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The agent: writes its records, then forwards until drained (or for ever); without a
/// forwarder (`OTEL_SDK_DISABLED=true`), writes its records and returns. On the main
/// actor: the spool's calls that block (a flush, a read at start, `agent.next`) run on the main
/// thread, never on a thread of Swift's cooperative pool.
///
/// Records are written and forwarded in turns, on one task: a turn writes up to a chunk of
/// records, then records the next `seq` durably in `agent.next` (an ``AtomicFile`` in the
/// spool's directory), then drains. Only a drain lets records leave the spool, and every record
/// a drain can release has a `seq` below the one recorded before it; every record at or above
/// it is still in the spool. So after a kill anywhere, the next `seq` is the recorded one or one
/// past the highest in the spool, whichever is more: no gap, no repeat.
@MainActor
struct Agent {
  let arguments: AgentArguments
  let spool: TelemetrySpool
  /// `nil` when forwarding is off (`OTEL_SDK_DISABLED=true`): the records stay in the spool.
  let forwarder: Forwarder?
  let written: CounterSeries
  let sizes: HistogramSeries
  let state: AtomicFile

  /// The label of the agent's record number `seq`.
  static let labels = ["agent.orders", "agent.payments", "agent.audit"]
  static let levels: [LogLevel] = [.info, .debug, .notice, .warning, .info, .error]
  static let chunk = 200

  init(arguments: AgentArguments, spool: TelemetrySpool, forwarder: Forwarder?) {
    self.arguments = arguments
    self.spool = spool
    self.forwarder = forwarder
    written = spool.metrics.counter(label: "agent.records_written")
    sizes = spool.metrics.histogram(label: "agent.record_bytes")
    state = AtomicFile(
      path: StorePath.join(spool.directory, "agent.next"), fileSystem: PosixFileSystem())
  }

  /// The next `seq` to write: the one recorded before the last drain, or one past the highest
  /// the spool holds, whichever is more.
  func nextSequence() throws(StoreError) -> Int {
    var highest = -1
    try spool.logs.forEachRecord { entry in
      guard let record = entry.record, Self.labels.contains(record.label),
        let text = record.metadata["seq"], let seq = Int(text.description)
      else { return }
      highest = max(highest, seq)
    }
    let recorded = try state.read().flatMap { Int(String(decoding: $0.bytes, as: UTF8.self)) }
    return max(recorded ?? 0, highest + 1)
  }

  /// Records `next` durably; only then may a drain release records below it.
  func record(next: Int) throws(StoreError) {
    try state.write(Array(String(next).utf8))
  }

  /// Writes record number `seq`: varied level, label and metadata, a unique `seq`.
  func write(_ seq: Int) -> Bool {
    let message = "event \(seq): " + String(repeating: "x", count: seq % 37)
    let accepted =
      spool.logs.log(
        level: Self.levels[seq % Self.levels.count], label: Self.labels[seq % Self.labels.count],
        message: message,
        metadata: [
          "seq": .stringConvertible(String(seq)), "user": .string("user-\(seq % 7)"),
          "request": .dictionary(["attempt": .stringConvertible(String(seq % 3))]),
          "tags": .array([.string("agent"), .string(seq.isMultiple(of: 2) ? "even" : "odd")]),
        ]) != nil
    guard accepted else { return false }
    written.increment()
    sizes.record(Double(message.utf8.count))
    return true
  }

  /// Runs the agent; returns the exit status.
  func run() async throws(StoreError) -> Int32 {
    var next = try nextSequence()
    var lastMetrics = ContinuousClock.now
    while next < arguments.logs {
      let end = min(next + Self.chunk, arguments.logs)
      while next < end {
        guard write(next) else {
          AgentOutput.error("record \(next) was not accepted by the spool (see its drop counts)")
          return 1
        }
        next += 1
      }
      if ContinuousClock.now - lastMetrics >= arguments.metricsEvery {
        try spool.metrics.flush()
        lastMetrics = .now
      }
      try record(next: next)
      _ = try await forwarder?.drain()
    }
    try record(next: next)
    guard let forwarder else {
      try spool.flush()
      AgentOutput.error(
        "forwarding is off (OTEL_SDK_DISABLED=true): the records stay in the spool for a later"
          + " run or 'stoic drain'")
      return 0
    }
    var failures = 0
    while true {
      if ContinuousClock.now - lastMetrics >= arguments.metricsEvery || arguments.exitWhenDrained {
        try spool.flush()
        lastMetrics = .now
      }
      let report = try await forwarder.drain()
      let pending = await forwarder.pending.count
      if report.haltedBecause == nil, report.batchesFormed == 0, pending == 0 {
        failures = 0
        if arguments.exitWhenDrained {
          let parked = await forwarder.parked
          if parked.isEmpty { return 0 }
          AgentOutput.error(
            "\(parked.count) batches refused permanently and parked: "
              + parked.map(\.key).joined(separator: ", "))
          return 2
        }
      } else if report.haltedBecause != nil {
        failures += 1
      }
      let wait =
        failures == 0
        ? forwarder.options.interval
        : forwarder.options.backoff(afterFailures: failures, random: Double.random(in: 0...1))
      try? await Task.sleep(for: wait)
    }
  }
}
