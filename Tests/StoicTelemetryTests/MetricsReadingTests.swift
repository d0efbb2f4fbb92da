import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The forwarder's side: samples by journal sequence range, dropping after acknowledgement,
/// and records a later version wrote kept and counted.
@Suite("MetricsSpool reading and dropping samples")
struct MetricsReadingTests {
  typealias Support = MetricsTestSupport

  static func open(_ disk: SimulatedFileSystem, boot: [UInt8] = Support.bootA) throws
    -> MetricsSpool
  {
    try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(boot: boot))
  }

  /// A spool with four flushes: records 1…4 holding c = 1…4 (and g in record 2).
  static func flushed(_ disk: SimulatedFileSystem) throws -> MetricsSpool {
    let spool = try open(disk)
    let counter = spool.counter(label: "c")
    for step in 1...4 {
      counter.increment()
      if step == 2 { spool.gauge(label: "g").set(2) }
      try spool.flush()
    }
    return spool
  }

  @Test("samples are read by sequence range, with their record's sequence")
  func ranges() throws {
    let spool = try Self.flushed(SimulatedFileSystem())
    #expect(spool.lastSequence == 4)
    var seen: [(UInt64, String, MetricSample.Value)] = []
    let summary = try spool.forEachSample(from: 2, through: 3) { sequence, sample in
      seen.append((sequence, sample.name, sample.value))
    }
    #expect(seen.map(\.0) == [2, 2, 3])
    #expect(seen.map(\.1) == ["c", "g", "c"])
    #expect(seen.map(\.2) == [.integer(2), .double(2), .integer(3)])
    #expect(summary.records == 2 && summary.samples == 3 && summary.lastSequence == 3)
    #expect(try spool.forEachSample(from: 5) { _, _ in }.records == 0)
    #expect(try spool.forEachSample(from: 3, through: 2) { _, _ in }.records == 0)
    try spool.close()
  }

  @Test("dropped samples are gone, and a restart of the machine still continues every series")
  func dropKeepsState() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.flushed(disk)
    try spool.dropThrough(3)
    #expect(spool.lowWaterMark == 3)
    #expect(try Support.journalSamples(spool).map(\.0) == [4])
    try spool.dropThrough(4)
    try spool.dropThrough(2)  // below the mark: nothing to do
    #expect(try Support.journalSamples(spool).isEmpty)
    #expect(throws: StoreError.self) { try spool.dropThrough(9) }
    // Only the snapshot holds "g" now (it changed in record 2): a rebuild still has it.
    let rebuilt = try Self.open(disk.copy(), boot: Support.bootB)
    #expect(Support.current(rebuilt, "c")?.value == .integer(4))
    #expect(Support.current(rebuilt, "g")?.value == .double(2))
    try rebuilt.close()
    try spool.close()
  }

  @Test("a record of a later format version is kept, counted and reported, never decoded")
  func newerRecordKept() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.flushed(disk)
    try spool.close()
    let journal = try Journal.open(
      directory: "metrics/samples", fileSystem: disk, options: Support.simulatedJournal)
    try journal.append([2, 0, 0, 0, 1, 0, 0, 0, 0xAB])
    try journal.close()
    let events = MetricsEventLog()
    let reopened = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(), events: events.sink)
    reopened.counter(label: "c").increment()
    try reopened.flush()
    var values: [MetricSample.Value] = []
    let summary = try reopened.forEachSample { _, sample in values.append(sample.value) }
    #expect(summary.newerRecords == 1 && summary.damagedRecords == 0)
    #expect(summary.records == 6)
    #expect(values.last == .integer(5))
    #expect(events.named("spool.metrics_samples_unreadable").count == 1)
    // Still there for a later build.
    #expect(try reopened.forEachSample(from: 5, through: 5) { _, _ in }.newerRecords == 1)
    try reopened.close()
  }
}
