import Foundation
import StoicStore
import StoicTesting
import Synchronization
import Testing

@testable import StoicTelemetry

/// Helpers of the metrics spool's tests.
enum MetricsTestSupport {
  /// The boot identity of "this" boot, and of a boot after a restart of the machine.
  static let bootA = [UInt8](repeating: 0xA1, count: 16)
  static let bootB = [UInt8](repeating: 0xB2, count: 16)

  /// Options for tests: no interval flush, a settable clock, a fixed boot identity.
  static func options(
    boot: [UInt8] = bootA, clock: TestClock = TestClock(), limit: Int = 2000,
    liveFileSize: Int = 64 << 10, journal: JournalOptions? = nil
  ) -> MetricsOptions {
    var options = MetricsOptions(
      flushInterval: nil, cardinalityLimit: limit, liveFileSize: liveFileSize)
    options.clock = { clock.now }
    options.bootIdentity = boot
    if let journal { options.journal = journal }
    return options
  }

  /// Deterministic journal options for the simulated disk: small segments, no background work.
  static var simulatedJournal: JournalOptions {
    JournalOptions(
      syncPolicy: .never, segmentSize: 64 << 10, backgroundMaintenance: false)
  }

  /// A fresh directory under /tmp, removed afterwards.
  static func withScratch<Result>(_ body: (String) throws -> Result) throws -> Result {
    var template = Array("/tmp/stoic-metrics-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SetupFailure("mkdtemp: errno \(errno)") }
    let path = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  /// Why a test could not set up.
  struct SetupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// The current sample of the series `name` (with `dimensions`), if any.
  static func current(
    _ spool: MetricsSpool, _ name: String, _ dimensions: [MetricDimension] = []
  ) -> MetricSample? {
    spool.currentSamples().first { $0.name == name && $0.dimensions == dimensions }
  }

  /// Every sample in the journal.
  static func journalSamples(_ spool: MetricsSpool) throws -> [(UInt64, MetricSample)] {
    var samples: [(UInt64, MetricSample)] = []
    try spool.forEachSample { sequence, sample in samples.append((sequence, sample)) }
    return samples
  }
}

/// A clock a test moves by hand (unix nanoseconds).
final class TestClock: Sendable {
  private let value: SleepingLock<UInt64>

  init(_ start: UInt64 = 1_700_000_000_000_000_000) {
    value = SleepingLock(start)
  }

  var now: UInt64 { value.withLock { $0 } }

  func advance(by nanoseconds: UInt64 = 1_000_000_000) {
    value.withLock { $0 += nanoseconds }
  }
}

/// Collects the events a spool raised.
final class MetricsEventLog: Sendable {
  private let events = SleepingLock<[StoreEvent]>([])

  var sink: EventSink {
    EventSink { [self] event in self.events.withLock { $0.append(event) } }
  }

  var all: [StoreEvent] { events.withLock { $0 } }

  func named(_ name: String) -> [StoreEvent] { all.filter { $0.name == name } }
}
