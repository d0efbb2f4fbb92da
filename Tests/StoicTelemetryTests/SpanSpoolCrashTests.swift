import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The span spool at every crash point of the simulated disk: a span whose end was durable is
/// there, ended by the code; a span whose start was durable is ended exactly once, by the code
/// or, cut short, as unfinished by the next open; no span is ended twice, even when the
/// recovery that ends them crashes too.
@Suite("SpanSpool crash consistency")
struct SpanSpoolCrashTests {
  static func options() -> TelemetryOptions {
    var options = SpoolTestSupport.options()
    options.spans = options.logs
    options.spans?.segmentSize = 1 << 10
    return options
  }

  static func start(_ index: Int) -> SpanStart {
    SpanStart(
      traceID: TraceID(high: 1, low: 2), spanID: SpanID(UInt64(index + 1)),
      parentSpanID: SpanID(index == 0 ? 0 : 1), name: "span \(index)",
      startTimeNanoseconds: Int64(1_000 + index))
  }

  /// Span `index` ended by the code: every third with status error (durable at once).
  static func end(_ index: Int) -> SpanEnd {
    SpanEnd(
      start: start(index), endTimeNanoseconds: Int64(2_000 + index),
      attributes: ["index": .int(Int64(index))],
      status: SpanEnd.Status(code: index % 3 == 2 ? .error : .ok))
  }

  /// Starts 12 spans and ends 8 of them (in another order), flushing once in the middle, then
  /// closes (which ends the other 4 as unfinished). Acknowledges each start and end once it
  /// is durable: an error end at once, with everything before it; the rest at the flush or
  /// the close.
  static func scenario(_ disk: SimulatedFileSystem, _ recorder: CrashRecorder) throws {
    let spool = try SpoolTestSupport.open(disk, options: options())
    guard let spans = spool.spans else { throw CheckFailure("no span spool") }
    var pending: [String] = []
    func commit() {
      for done in pending { recorder.acknowledge(done) }
      pending = []
    }
    for index in 0..<12 {
      guard spans.start(start(index)) != nil else { throw CheckFailure("start \(index) dropped") }
      pending.append("started:\(index)")
      if index >= 4, index % 2 == 0 {
        let ended = index - 4
        guard spans.end(end(ended)) != nil else { throw CheckFailure("end \(ended) dropped") }
        pending.append("ended:\(ended)")
        if end(ended).status.code == .error { commit() }
      }
      if index == 6 {
        try spool.flush()
        commit()
      }
    }
    try spool.close()
    commit()
  }

  /// The ends recovered, by span index.
  static func recover(_ disk: SimulatedFileSystem) throws -> [Int: [SpanEnd]] {
    let spool = try SpoolTestSupport.open(disk, options: options())
    defer { try? spool.close() }
    var ends: [Int: [SpanEnd]] = [:]
    try spool.spans?.forEachSpanRecord { (_, record) throws(StoreError) in
      guard case .success(.end(let end)) = record else { return }
      ends[Int(end.start.spanID.value) - 1, default: []].append(end)
    }
    return ends
  }

  static func check(_ ends: [Int: [SpanEnd]], _ context: CrashContext) throws {
    for (index, found) in ends {
      try context.require(found.count == 1, "span \(index) ended \(found.count) times")
      if let end = found.first, !end.isUnfinished {
        try context.require(end == Self.end(index), "span \(index)'s end is not intact")
      }
    }
    for acknowledgement in context.acknowledged {
      let parts = acknowledgement.split(separator: ":")
      guard parts.count == 2, let index = Int(parts[1]) else { continue }
      let found = ends[index] ?? []
      try context.require(
        found.count == 1, .missingData, "span \(index) (\(parts[0])) has \(found.count) ends")
      if parts[0] == "ended" {
        try context.require(
          found.first?.isUnfinished == false, .missingData,
          "span \(index)'s end returned durable but it was recovered as unfinished")
      }
    }
  }

  @Test("every durable start ends exactly once, every durable end is the code's, at every crash")
  func durability() {
    var budget = CrashBudget.fromEnvironment(default: 8)
    budget.recoveryCrashPoints = budget.imagesPerCrashPoint != 8
    budget.crashedRecoveriesPerCrashPoint = budget.crashedRecoveriesPerCrashPoint ?? 64
    let report = CrashExplorer(budget: budget).explore(
      operation: { disk, recorder in try Self.scenario(disk, recorder) },
      recover: { disk in try Self.recover(disk) },
      check: { ends, context in try Self.check(ends, context) })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil, "\(report)")
    #expect(report.crashPoints > 20, "\(report)")
  }
}
