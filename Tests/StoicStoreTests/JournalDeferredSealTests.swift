import Testing

@_spi(Testing) @testable import StoicStore
@testable import StoicTesting

/// A full segment is replaced at once and sealed later (in the background, or by the next
/// sync, roll, drop or close): appends never wait for a seal, and a crash before the seal
/// loses nothing that was durable and leaves no gap.
@Suite("Journal seals replaced segments after the roll")
struct JournalDeferredSealTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  /// Small segments, never policy: records 1...6 roll several segments, a sync makes them
  /// durable, 7...8 follow unsynced, then close.
  static func neverPolicyRollsScenario(options: JournalOptions) -> CrashReport {
    Support.explore(
      options: options, attempted: Array(1...8),
      setup: { disk in
        // An empty journal, created durably without any mutation.
        var plain = options
        plain.mutations = []
        try Journal.open(directory: Support.directory, fileSystem: disk, options: plain).close()
      },
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Support.directory, fileSystem: disk, options: options)
        for sequence in 1...6 as ClosedRange<UInt64> {
          _ = try journal.append(Support.payload(sequence))
        }
        try journal.sync()
        for sequence in 1...6 { recorder.acknowledge(String(sequence)) }
        for sequence in 7...8 as ClosedRange<UInt64> {
          _ = try journal.append(Support.payload(sequence))
        }
        try journal.close()
        for sequence in 7...8 { recorder.acknowledge(String(sequence)) }
      })
  }

  static func neverPolicyOptions(mapped: Bool) -> JournalOptions {
    var options = Support.smallSegments(compress: false)
    options.syncPolicy = .never
    options.mappedAppends = mapped
    return options
  }

  @Test(
    "unsynced rolls, a sync, more appends, close: at every crash point", arguments: [true, false])
  func neverPolicyRolls(mapped: Bool) {
    let report = Self.neverPolicyRollsScenario(options: Self.neverPolicyOptions(mapped: mapped))
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 20)
  }

  @Test("the replaced segment is readable while its seal is pending, and sealed by close")
  func pendingSegmentIsReadable() throws {
    let disk = SimulatedFileSystem()
    let options = Self.neverPolicyOptions(mapped: true)
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    for sequence in 1...5 as ClosedRange<UInt64> { try journal.append(Support.payload(sequence)) }
    let pending = journal.state.withLock { $0.sealing?.segment.name }
    let name = try #require(pending)
    #expect(try journal.records().map(\.payload) == (1...5).map(Support.payload))
    // Nothing was synced: the replaced segment's bytes are not durable yet.
    #expect(disk.durableContents(directory + "/" + name)?.isEmpty ?? true)
    try journal.close()
    #expect(journal.state.withLock { $0.sealing } == nil)
    let size = disk.contents(directory + "/" + name)?.count ?? 0
    #expect(disk.durableContents(directory + "/" + name)?.count == size)
    let records = try Journal.open(
      directory: directory, fileSystem: disk.crashedDurableOnly(), options: options
    ).records()
    #expect(records.map(\.sequence) == Array(1...5))
  }

  @Test("power lost before the seal: the active segment's unsynced records go with it, no gap")
  func tornReplacedSegmentTakesTheActiveOne() throws {
    let disk = SimulatedFileSystem()
    let options = Self.neverPolicyOptions(mapped: true)
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    try journal.append(Support.payload(1))
    try journal.sync()
    for sequence in 2...6 as ClosedRange<UInt64> { try journal.append(Support.payload(sequence)) }
    #expect(journal.state.withLock { $0.sealing } != nil)
    let crashed = disk.crashedDurableOnly()
    let events = EventRecorder()
    let reopened = try Journal.open(
      directory: directory, fileSystem: crashed, options: options, events: events.sink)
    let sequences = try reopened.records().map(\.sequence)
    #expect(sequences.first == 1)
    #expect(sequences == Array(1...UInt64(sequences.count)))
    #expect(try reopened.append(Support.payload(99)) == UInt64(sequences.count) + 1)
  }
}
