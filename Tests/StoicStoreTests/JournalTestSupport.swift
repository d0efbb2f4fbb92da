import Foundation
import Testing

@_spi(Testing) @testable import StoicStore
@testable import StoicTesting

/// Helpers shared by the journal tests.
enum JournalTestSupport {
  static let directory = "/data/journal"

  /// The payload the tests append as record number `sequence` (lengths vary so frames straddle
  /// windows and blocks).
  static func payload(_ sequence: UInt64) -> [UInt8] {
    let length = 3 + Int(sequence % 7) * 5
    return (0..<length).map { UInt8(truncatingIfNeeded: Int(sequence) &* 31 &+ $0) }
  }

  /// The path on `disk` of the segment of `kind` starting at `first` (a compressed segment's
  /// name records its summary), or `nil`.
  static func segmentPath(
    on disk: SimulatedFileSystem, first: UInt64, kind: JournalFileNames.SegmentKind
  ) -> String? {
    disk.allPaths().first { path in
      guard path.hasPrefix(directory + "/"),
        let parsed = JournalFileNames.parseSegment(String(path.dropFirst(directory.count + 1)))
      else { return false }
      return parsed.first == first && parsed.kind == kind
    }
  }

  /// Renames every compressed segment on `disk` (the journal closed) to the earlier form of
  /// its name, `journal-<first>.zst`, which records no summary: an open checks such a segment's
  /// header and trailer, as it did before names recorded them. Returns the new paths.
  @discardableResult
  static func earlierFormNames(on disk: SimulatedFileSystem) throws -> [String] {
    var renamed: [String] = []
    for path in disk.allPaths() where path.hasPrefix(directory + "/") {
      guard
        let parsed = JournalFileNames.parseSegment(String(path.dropFirst(directory.count + 1))),
        parsed.kind == .compressed, parsed.summary != nil
      else { continue }
      let earlier =
        directory + "/" + JournalFileNames.segment(first: parsed.first, kind: .compressed)
      try disk.rename(path, to: earlier)
      renamed.append(earlier)
    }
    try disk.syncDirectory(directory)
    return renamed
  }

  /// The payload a recovery appends to prove the journal still takes appends.
  static let extra: [UInt8] = Array("extra".utf8)

  /// The state a snapshot covering `sequence` holds in the crash tests: the sequences it
  /// covers, as text.
  static func state(through sequence: UInt64) -> [UInt8] {
    Array((1...max(sequence, 1)).map(String.init).joined(separator: ",").utf8)
  }

  /// What a recovery found, for the crash checks.
  struct Recovered: Sendable {
    var records: [JournalRecord]
    var lowWater: UInt64
    var snapshot: JournalSnapshot?
    var lastSequence: UInt64
  }

  /// Opens the journal on a crashed disk, reads it, appends one more durable record, closes
  /// and reopens, and checks that record is the last one: a tail scanned but not cut, or a
  /// name not synced, shows up here.
  static func recover(_ disk: SimulatedFileSystem, options: JournalOptions) throws -> Recovered {
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let records = try journal.records()
    let recovered = Recovered(
      records: records, lowWater: journal.lowWaterMark, snapshot: try journal.snapshot(),
      lastSequence: journal.lastSequence)
    let sequence = try journal.append(extra, durable: true)
    try journal.close()
    let again = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? again.close() }
    let last = try again.records().last
    guard last == JournalRecord(sequence: sequence, payload: extra) else {
      throw JournalCheckFailure(
        "a record appended after recovery was not read back: got \(String(describing: last))")
    }
    return recovered
  }

  /// The crash invariant: recovery yields a prefix of `attempted` (sequences in order, after
  /// the low-water mark) at least as long as the acknowledged ones, with the right payloads,
  /// followed only by records a crashed earlier recovery appended; a snapshot holds the state
  /// it covers.
  static func check(
    _ recovered: Recovered, _ context: CrashContext, attempted: [UInt64],
    validPayload: (JournalRecord) -> Bool = { $0.payload == payload($0.sequence) }
  ) throws {
    let acknowledged = Set(context.acknowledged.compactMap { UInt64($0) })
    var records = recovered.records
    while let last = records.last, last.payload == extra { records.removeLast() }
    let expected = attempted.filter { $0 > recovered.lowWater }
    try context.require(
      records.count <= expected.count,
      "more records than were appended: \(records.map(\.sequence))")
    for (index, record) in records.enumerated() {
      try context.require(
        record.sequence == expected[index] && validPayload(record),
        "record \(index) is \(record.sequence), expected \(expected[index]) "
          + "(recovered \(records.map(\.sequence)), low-water \(recovered.lowWater))")
    }
    for sequence in acknowledged where sequence > recovered.lowWater {
      try context.require(
        records.contains { $0.sequence == sequence }, .missingData,
        "acknowledged record \(sequence) is missing "
          + "(recovered \(records.map(\.sequence)), low-water \(recovered.lowWater))")
    }
    try context.require(
      recovered.lowWater <= (attempted.last ?? 0),
      "low-water mark \(recovered.lowWater) beyond every appended record")
    if let snapshot = recovered.snapshot {
      try context.require(
        snapshot.bytes == state(through: snapshot.sequence),
        "snapshot through \(snapshot.sequence) holds the wrong state")
    }
  }

  /// Runs the explorer with the journal's recover and check.
  static func explore(
    crashRecovery: Bool = false,
    options: JournalOptions,
    recoverOptions: JournalOptions? = nil,
    attempted: [UInt64],
    validPayload: @escaping (JournalRecord) -> Bool = { $0.payload == payload($0.sequence) },
    name: String = #function,
    setup: (SimulatedFileSystem) throws -> Void = { _ in },
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void
  ) -> CrashReport {
    let report = CrashExplorer(budget: budget(crashRecovery: crashRecovery)).explore(
      setup: setup,
      operation: operation,
      recover: { disk in try recover(disk, options: recoverOptions ?? options) },
      check: { recovered, context in
        try check(recovered, context, attempted: attempted, validPayload: validPayload)
      })
    if ProcessInfo.processInfo.environment["STOIC_CRASH_BUDGET"] != nil {
      print("journal crash exploration \(name) \(options.mutations.rawValue): \(report)")
    }
    return report
  }

  /// The budget: `STOIC_CRASH_BUDGET` images per crash point (8 by default, to keep the
  /// ordinary run fast). Recovery itself is crashed at each of its points in the tests whose
  /// recovery repairs something, and in every test when a budget is set explicitly.
  static func budget(crashRecovery: Bool) -> CrashBudget {
    var budget = CrashBudget.fromEnvironment(default: 8)
    let explicit = budget.imagesPerCrashPoint != 8
    budget.recoveryCrashPoints = crashRecovery || explicit
    return budget
  }

  /// Options with small segments so the crash tests roll and compress; compression runs
  /// inline (deterministic for the explorer).
  static func smallSegments(compress: Bool = true) -> JournalOptions {
    var options = JournalOptions(
      segmentSize: 80, readWindow: 64, compressSealedSegments: compress,
      backgroundMaintenance: false)
    options.maxRecordSize = 256
    // Zeros written ahead in chunks smaller than a record: every crash test crosses many.
    options.zeroAheadBytes = 32
    options.zeroAheadMinimumRate = 0
    return options
  }

  /// The active segment's path of a journal in `directory` on `disk` (the newest `.log`).
  static func activeSegment(on disk: SimulatedFileSystem) -> String? {
    disk.allPaths().filter { $0.hasPrefix(directory + "/journal-") && $0.hasSuffix(".log") }.last
  }
}

/// A check that failed outside a crash context.
struct JournalCheckFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Collects emitted events for assertions.
final class JournalEventLog: Sendable {
  private let storage = SleepingLock<[StoreEvent]>([])
  var sink: EventSink { EventSink { event in self.storage.withLock { $0.append(event) } } }
  var events: [StoreEvent] { storage.withLock { $0 } }
  func named(_ name: String) -> [StoreEvent] { events.filter { $0.name == name } }
  func named(_ definition: EventDefinition) -> [StoreEvent] {
    events.filter { $0.definition == definition }
  }
}
