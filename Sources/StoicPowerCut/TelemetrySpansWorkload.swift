import Foundation
import StoicStore
@_spi(Testing) import StoicTelemetry
import StoicTesting

/// Spans through a ``TelemetrySpool``'s span spool from one thread: span `n` is started, and,
/// unless `n % 5 == 4` (left open), ended; every third end has status error, durable before
/// `end` returns at the default durable level; `flush()` now and then. Small segments, so rolls
/// happen inside the run.
///
/// Claims: an error end claims itself (`a`, the span's number times 2 plus 1); every other
/// start and end only says which record its sequence holds (`w`, the span's number times 2 for
/// a start, plus 1 for an end); a flush claims everything up to
/// ``RecordSpool/durableSequence`` read after it returned. After a cut the spool is opened
/// again (which ends the spans the cut left open): every claimed end is there at its sequence,
/// intact and ended by the code; every start the spool can be shown to have kept durably has
/// exactly one end; no span has two.
///
/// The control ends spans under the `noDurableSync` mutation (error ends return without their
/// sync) and never flushes: its claims must show losses.
package struct TelemetrySpansWorkload: PowerCutWorkload {
  package let name: String
  package let summary: String
  /// The control: error ends are not synced before their call returns.
  let skipsDurableSync: Bool

  package var isControl: Bool { skipsDurableSync }

  /// How many spans the thread starts at most.
  static let spans = 20_000

  init(name: String, summary: String, skipsDurableSync: Bool = false) {
    self.name = name
    self.summary = summary
    self.skipsDurableSync = skipsDurableSync
  }

  /// The spool's options: spans at durable level `error`, small segments, no quota drops
  /// within the volume. The control's background sync is an hour away.
  func options(mutated: Bool) -> TelemetryOptions {
    var spans = LogSpoolOptions(
      durableLevel: .error, maxDelay: skipsDurableSync ? .seconds(3600) : .milliseconds(100),
      byteLimit: 64 << 20, segmentSize: 256 << 10)
    if mutated && skipsDurableSync { spans.mutations = .noDurableSync }
    return TelemetryOptions(
      metrics: MetricsOptions(flushInterval: nil, liveFileSize: 32 << 10), spans: spans)
  }

  static let trace = TraceID(high: 0x5701C, low: 1)

  static func start(_ number: Int) -> SpanStart {
    SpanStart(
      traceID: trace, spanID: SpanID(UInt64(number + 1)), parentSpanID: SpanID(number == 0 ? 0 : 1),
      name: "span \(number)", startTimeNanoseconds: 1_700_000_000_000_000_000 + Int64(number))
  }

  static func end(_ number: Int) -> SpanEnd {
    SpanEnd(
      start: start(number), endTimeNanoseconds: 1_700_000_000_000_000_000 + Int64(number) + 500,
      attributes: ["number": .int(Int64(number))],
      status: SpanEnd.Status(code: number % 3 == 2 ? .error : .ok, message: "n\(number)"))
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let spool = try TelemetrySpool.open(
      at: StorePath.join(directory, "spool"), options: options(mutated: true))
    guard let spans = spool.spans else { throw PowerCutError("the spool has no span spool") }
    var random = SplitMix64(seed: seed)
    let flushEvery = 8 + random.below(24)
    for number in 0..<Self.spans {
      guard let started = spans.start(Self.start(number)) else {
        throw PowerCutError("span \(number)'s start was dropped")
      }
      try acknowledgements.claim(.written(sequence: started, appender: 0, counter: number * 2))
      if number % 5 != 4 {
        let end = Self.end(number)
        guard let ended = spans.end(end) else {
          throw PowerCutError("span \(number)'s end was dropped")
        }
        let counter = number * 2 + 1
        try acknowledgements.claim(
          end.status.code == .error
            ? .record(sequence: ended, appender: 0, counter: counter)
            : .written(sequence: ended, appender: 0, counter: counter))
      }
      PowerCutHost.sleep(milliseconds: 1)
      if !skipsDurableSync && number % flushEvery == 0 {
        try spans.flush()
        try acknowledgements.claim(.durableThrough(spans.durableSequence))
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
      defer { try? spool.close() }
      guard let spans = spool.spans else {
        verdict.add("the spool has no span spool after the cut")
        return verdict
      }
      var records: [UInt64: SpanRecord] = [:]
      var ends: [Int: [SpanEnd]] = [:]
      try spans.forEachSpanRecord { (sequence, record) throws(StoreError) in
        guard case .success(let decoded) = record else { return }
        records[sequence] = decoded
        if case .end(let end) = decoded {
          ends[Int(end.start.spanID.value) - 1, default: []].append(end)
        }
      }
      for (number, found) in ends where found.count > 1 {
        verdict.add("span \(number) ended \(found.count) times")
      }
      // The spool may hold more than a flush claimed (what the open ended), never less.
      verdict.require(
        acknowledgements.flushedThrough <= spans.lastSequence,
        "a flush claimed records through \(acknowledgements.flushedThrough), the spool ends at "
          + "\(spans.lastSequence)")
      let claimed = acknowledgements.logRecords
      // Whatever an error end's sync or a flush covered is durable.
      let durable = max(
        acknowledgements.flushedThrough, claimed.filter(\.value.durable).keys.max() ?? 0)
      var startsKept = 0
      for (sequence, (_, counter, isDurable)) in claimed where isDurable || sequence <= durable {
        let number = counter / 2
        let record = records[sequence]
        if counter % 2 == 0 {
          verdict.require(
            record == .start(Self.start(number)),
            "span \(number)'s start, durable at \(sequence), is \(String(describing: record))")
          verdict.require(
            ends[number]?.count == 1, "span \(number), durably started, has no end after the cut")
          startsKept += 1
        } else {
          verdict.require(
            record == .end(Self.end(number)),
            "span \(number)'s end, durable at \(sequence), is \(String(describing: record))")
        }
      }
      verdict.facts.append(
        "\(records.count) span records through \(spans.lastSequence); \(startsKept) durable "
          + "starts, each ended once; \(spool.spansEndedAtOpen) ended as unfinished at open")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
