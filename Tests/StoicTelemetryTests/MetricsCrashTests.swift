import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The metrics spool on the simulated disk, crashed at every point: a flush's samples survive
/// every power loss after the flush returned, a restarted machine continues each series from a
/// value some flush synced (never a torn or garbled one), and whatever the crash left of the
/// live file, recovery never fails.
@Suite("MetricsSpool crash points")
struct MetricsCrashTests {
  typealias Support = MetricsTestSupport

  /// What a recovered spool holds.
  struct Recovered {
    var counter: Int64?
    var histogramCount: UInt64?
    var samples: [MetricSample]
  }

  /// 6 images per crash point unless `STOIC_CRASH_BUDGET` asks for more (each image is a whole
  /// reopen of the spool, and recovery is crashed at each of its own points too).
  static let budget = CrashBudget.fromEnvironment(default: 6)

  static func options(boot: [UInt8]) -> MetricsOptions {
    Support.options(boot: boot, liveFileSize: 32 << 10, journal: Support.simulatedJournal)
  }

  /// The flushes of the operation: (counter, histogram count) after each. A later update that
  /// is never flushed brings the counter to 27.
  static let flushed: [(Int64, UInt64)] = [(3, 1), (7, 3), (17, 4)]

  static func operation(_ disk: SimulatedFileSystem, _ recorder: CrashRecorder) throws {
    let spool = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: options(boot: Support.bootA))
    let counter = spool.counter(label: "c")
    let histogram = spool.histogram(label: "h", bounds: [1, 2])
    counter.increment(by: 3)
    histogram.record(1)
    try spool.flush()
    recorder.acknowledge("0")
    counter.increment(by: 4)
    histogram.record(2)
    histogram.record(5)
    try spool.flush()
    recorder.acknowledge("1")
    // The forwarder acknowledged the first flush: its record goes, into the snapshot.
    try spool.dropThrough(1)
    counter.increment(by: 10)
    histogram.record(0.5)
    try spool.close()
    recorder.acknowledge("2")
    counter.increment(by: 10)  // after close: in the live file only
  }

  static func recover(_ disk: SimulatedFileSystem, boot: [UInt8]) throws -> Recovered {
    let spool = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: options(boot: boot))
    var histogramCount: UInt64?
    if case .histogram(let histogram) = Support.current(spool, "h")?.value {
      histogramCount = histogram.count
    }
    var counter: Int64?
    if case .integer(let value) = Support.current(spool, "c")?.value { counter = value }
    let samples = try Support.journalSamples(spool).map(\.1)
    return Recovered(counter: counter, histogramCount: histogramCount, samples: samples)
  }

  @Test(
    "after a power loss each series continues from a synced flush, never below the last acknowledged"
  )
  func powerLoss() {
    let report = CrashExplorer(budget: Self.budget).explore(
      operation: Self.operation,
      recover: { disk in try Self.recover(disk, boot: Support.bootB) },
      check: { recovered, context in
        let acknowledged = context.acknowledged.compactMap(Int.init).last
        let allowed = [(Int64(0), UInt64(0))] + Self.flushed
        let floor = acknowledged.map { Self.flushed[$0] } ?? (0, 0)
        let counter = recovered.counter ?? 0
        let count = recovered.histogramCount ?? 0
        // Exactly the values of one flush (or none): never torn, never garbage.
        try context.require(
          allowed.contains { $0.0 == counter && $0.1 == count },
          "recovered c=\(counter), h=\(count): not the values of any flush")
        try context.require(
          counter >= floor.0 && count >= floor.1,
          "recovered c=\(counter), h=\(count) below the acknowledged flush \(floor)")
        // Each acknowledged flush's sample is in the journal (the first one only until the
        // drop that follows the second flush).
        var owed: [Int64] = []
        if acknowledged == 0 { owed.append(3) }
        if let acknowledged, acknowledged >= 1 { owed.append(7) }
        if acknowledged == 2 { owed.append(17) }
        for value in owed {
          try context.require(
            recovered.samples.contains { $0.name == "c" && $0.value == .integer(value) },
            "the sample c=\(value) of an acknowledged flush is gone: \(recovered.samples)")
        }
      })
    #expect(report.passed, "\(report.violations.prefix(3))")
    #expect(report.crashPoints > 20)
    print(
      "metrics power loss: \(report.crashPoints) crash points, \(report.imagesChecked) images, "
        + "\(report.recoveryImagesChecked) recovery images")
  }

  @Test("whatever a crash leaves of the live file, recovery in the same boot never fails")
  func sameBootNeverFails() {
    var budget = Self.budget
    budget.recoveryCrashPoints = false
    let report = CrashExplorer(budget: budget).explore(
      operation: Self.operation,
      recover: { disk in try Self.recover(disk, boot: Support.bootA) },
      check: { recovered, context in
        // Adopting a file the kernel could not have left (a torn page in the same boot) may
        // give any value; only a synced flush's samples are owed.
        if context.acknowledged.last == "2" {
          try context.require(
            recovered.samples.contains { $0.name == "c" && $0.value == .integer(17) },
            "the closing flush's sample is gone")
        }
      })
    #expect(report.passed, "\(report)")
    print(
      "metrics same boot: \(report.crashPoints) crash points, \(report.imagesChecked) images, "
        + "\(report.recoveryImagesChecked) recovery images")
  }
}
