import Foundation
import StoicStore
import StoicTesting
import Testing

@_spi(Testing) @testable import StoicTelemetry

/// The log spool's durability at every crash point of the simulated disk: a record at or above
/// the durable level survives every crash after its call returned; the others every crash after
/// the next commit (a durable record's sync, a flush, a close). And records removed by the
/// quota are counted exactly once, whatever the crash.
@Suite("LogSpool crash consistency")
struct LogSpoolCrashTests {
  typealias Support = SpoolTestSupport

  /// The level of record number `index` of the scenarios.
  static func level(_ index: Int) -> LogLevel {
    [.info, .debug, .error, .warning, .info, .notice, .critical, .trace][index % 8]
  }

  /// The record number `index` logs: its content depends on the index, so a torn or misplaced
  /// record shows.
  @discardableResult
  static func log(_ spool: TelemetrySpool, _ index: Int) -> UInt64? {
    spool.logs.log(
      level: level(index), label: "app", message: "record \(index)",
      metadata: [
        "index": .stringConvertible(String(index)),
        "nested": .dictionary(["even": .string(String(index % 2 == 0))]),
      ],
      source: "crash", file: "LogSpoolCrashTests.swift", function: "log", line: UInt(index))
  }

  /// Whether `record` is exactly what record number `index` logged.
  static func intact(_ record: LogRecord, _ index: Int) -> Bool {
    record.label == "app" && record.message == "record \(index)" && record.level == level(index)
      && record.line == UInt(index) && record.source == "crash"
      && record.metadata["index"] == .stringConvertible(String(index))
      && record.metadata["nested"] == .dictionary(["even": .string(String(index % 2 == 0))])
  }

  /// Small segments (so the scenarios roll and compress), maintenance inline.
  static func options(mutations: LogSpoolMutations = []) -> TelemetryOptions {
    var options = Support.options()
    options.logs.segmentSize = 1 << 10
    options.logs.mutations = mutations
    return options
  }

  /// What recovery found.
  struct Recovered {
    var identity: SpoolIdentity
    var records: [LogRecord]
    var lowWater: UInt64
    var lastSequence: UInt64
    var drops: SpoolDropCounts
  }

  /// Opens the spool on a crashed disk, reads it, logs one more record, closes, reopens and
  /// checks that record is there: a spool that recovered must take records again.
  static func recover(_ disk: SimulatedFileSystem, options: TelemetryOptions) throws -> Recovered {
    let spool = try Support.open(disk, options: options)
    let recovered = Recovered(
      identity: spool.identity, records: try Support.records(spool),
      lowWater: spool.logs.lowWaterMark, lastSequence: spool.logs.lastSequence,
      drops: spool.dropCounts)
    let extra = try #require(
      spool.logs.log(level: .error, label: "recovery", message: "after the crash"))
    try spool.close()
    let again = try Support.open(disk, options: options)
    defer { try? again.close() }
    let found = try again.logs.entries(from: extra, through: extra).first?.record
    guard found?.message == "after the crash" else {
      throw CheckFailure(
        "a record logged after recovery was not read back: \(String(describing: found))")
    }
    return recovered
  }

  /// The records of the app in what was recovered, with their indices (from the message).
  static func appRecords(_ recovered: Recovered) -> [(index: Int, record: LogRecord)] {
    recovered.records.filter { $0.label == "app" }.compactMap { record in
      Int(record.message.dropFirst("record ".count)).map { ($0, record) }
    }
  }

  /// Every app record intact; the indices a prefix of those attempted (in order, no gap, no
  /// duplicate) holding every acknowledged one; the identity the one acknowledged.
  static func checkPrefix(_ recovered: Recovered, _ context: CrashContext) throws {
    let found = appRecords(recovered)
    for (position, entry) in found.enumerated() {
      try context.require(
        entry.index == position,
        "record \(position) is number \(entry.index): \(found.map(\.index))")
      try context.require(intact(entry.record, entry.index), "record \(entry.index) is not intact")
    }
    for acknowledgement in context.acknowledged {
      if acknowledgement.hasPrefix("identity:") {
        try context.require(
          "identity:\(recovered.identity.hex)" == acknowledgement,
          "the identity changed from \(acknowledgement) to \(recovered.identity.hex)")
      } else if let index = Int(acknowledgement) {
        try context.require(
          index < found.count, .missingData,
          "acknowledged record \(index) is missing: \(found.map(\.index))")
      }
    }
  }

  /// Opens the spool, logs 24 records (some at the durable level), flushes in the middle,
  /// closes; acknowledges each record once it must survive: at once at the durable level,
  /// and every record before it with it; the others at the next flush, durable record or close.
  static func scenario(
    _ disk: SimulatedFileSystem, _ recorder: CrashRecorder, _ options: TelemetryOptions
  ) throws {
    let spool = try Support.open(disk, options: options)
    recorder.acknowledge("identity:\(spool.identity.hex)")
    var pending: [Int] = []
    for index in 0..<24 {
      guard log(spool, index) != nil else { throw CheckFailure("record \(index) was dropped") }
      pending.append(index)
      if level(index) >= .error || index == 11 {
        if index == 11 { try spool.flush() }
        for done in pending { recorder.acknowledge(String(done)) }
        pending = []
      }
    }
    try spool.close()
    for done in pending { recorder.acknowledge(String(done)) }
  }

  static func explore(options: TelemetryOptions, images: Int = 8) -> CrashReport {
    let report = CrashExplorer(budget: budget(images: images, crashedRecoveries: 256)).explore(
      operation: { disk, recorder in try scenario(disk, recorder, options) },
      recover: { disk in try recover(disk, options: options) },
      check: { recovered, context in try checkPrefix(recovered, context) })
    if EnvironmentValue.integer("STOIC_CRASH_BUDGET") != nil {
      print("log spool crash exploration \(options.logs.mutations.rawValue): \(report)")
    }
    return report
  }

  /// `STOIC_CRASH_BUDGET` images per crash point (`images` by default, for a short run: the
  /// mutation checks need only the durable-only and everything-kept images); recovery is
  /// crashed too when a budget is given, on the first `crashedRecoveries` images of each
  /// crash point unless `STOIC_CRASH_RECOVERIES` says otherwise.
  ///
  /// A spool's recovery performs 10 to 16 operations (open, a record logged, close, open
  /// again), each crashed into up to 8 images, so crashing the recovery of an image costs 80
  /// to 130 more recoveries. The first images of a crash point are every image where the
  /// point's space fits, else the durable-only and everything-kept images and the
  /// representative tear points, then the sample; every image beyond is recovered and
  /// checked with its recovery left whole. The caps (256 for `durability`, 64 for the
  /// heavier `quotaDropsCountedOnce`) keep each at the full budget of 2000 within an hour on
  /// one core (CONTRIBUTING.md has the measured times).
  static func budget(images: Int, crashedRecoveries: Int) -> CrashBudget {
    var budget = CrashBudget.fromEnvironment(default: images)
    budget.recoveryCrashPoints = budget.imagesPerCrashPoint != images
    budget.crashedRecoveriesPerCrashPoint =
      budget.crashedRecoveriesPerCrashPoint ?? crashedRecoveries
    return budget
  }

  @Test(
    "durable-level records survive every crash after their call returned, others after the next commit"
  )
  func durability() {
    let report = Self.explore(options: Self.options())
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil, "\(report)")
    #expect(report.crashPoints > 50, "\(report)")
  }

  // MARK: - Quota drops

  /// A spool of 4 KiB (1 KiB segments) that every record is durable in, so that what returned
  /// must be there.
  static func quotaOptions(mutations: LogSpoolMutations = []) -> TelemetryOptions {
    var options = Self.options(mutations: mutations)
    options.logs.byteLimit = 4 << 10
    options.logs.durableLevel = .trace
    return options
  }

  /// Exactly the records removed are counted: the quota count equals the low-water mark (no
  /// other drop happens here), every record after it is there, and every record whose call
  /// returned is there unless the quota removed it.
  static func checkQuota(_ recovered: Recovered, _ context: CrashContext) throws {
    try context.require(
      recovered.drops.quota == recovered.lowWater,
      "\(recovered.drops.quota) records counted as dropped by the quota, low-water mark "
        + "\(recovered.lowWater)")
    try context.require(
      recovered.drops.total == recovered.drops.quota, "other drops: \(recovered.drops)")
    let sequences = recovered.records.map(\.sequence)
    let expected =
      recovered.lowWater < recovered.lastSequence
      ? Array((recovered.lowWater + 1)...recovered.lastSequence) : []
    try context.require(sequences == expected, "records \(sequences), expected \(expected)")
    for acknowledgement in context.acknowledged {
      guard let sequence = UInt64(acknowledgement) else { continue }
      try context.require(
        sequence <= recovered.lastSequence, .missingData,
        "acknowledged record \(sequence) is missing")
    }
  }

  static func exploreQuota(options: TelemetryOptions, images: Int = 8) -> CrashReport {
    let report = CrashExplorer(budget: budget(images: images, crashedRecoveries: 64)).explore(
      operation: { disk, recorder in
        let spool = try Support.open(disk, options: options)
        for index in 0..<40 {
          if let sequence = log(spool, index) { recorder.acknowledge(String(sequence)) }
        }
        // The scenario is about removals: some must have happened.
        guard spool.dropCounts.quota > 0 else { throw CheckFailure("nothing was dropped") }
        try spool.close()
      },
      recover: { disk in try recover(disk, options: options) },
      check: { recovered, context in try checkQuota(recovered, context) })
    if EnvironmentValue.integer("STOIC_CRASH_BUDGET") != nil {
      print("log spool quota crash exploration \(options.logs.mutations.rawValue): \(report)")
    }
    return report
  }

  @Test("records removed by the quota are counted exactly once at every crash point")
  func quotaDropsCountedOnce() {
    let report = Self.exploreQuota(options: Self.quotaOptions())
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil, "\(report)")
    #expect(report.crashPoints > 100, "\(report)")
    #expect(report.imagesChecked > 0)
  }
}
