import Dispatch
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The byte limit under each policy and the age limit: the spool stays within its bound, and
/// reports exactly the number of records it dropped, also after a restart.
@Suite("LogSpool quota and retention")
struct LogSpoolQuotaTests {
  typealias Support = SpoolTestSupport

  /// A 16 KiB spool (2 KiB segments) with `policy`.
  static func options(_ policy: LogSpoolFullPolicy) -> TelemetryOptions {
    var options = Support.options()
    options.logs.byteLimit = 16 << 10
    options.logs.whenFull = policy
    return options
  }

  /// The bytes the journal's segments hold now.
  static func storedBytes(_ spool: TelemetrySpool) throws -> UInt64 {
    let journal = try #require(spool.logs.currentJournal())
    return try journal.segments().reduce(0) { $0 + $1.bytes }
  }

  /// The bytes of the log journal's segment files on `disk` (after close: no preallocation).
  static func segmentFileBytes(_ disk: SimulatedFileSystem) -> Int {
    disk.allPaths().filter { $0.hasPrefix(Support.root + "/logs/journal-") }
      .reduce(0) { $0 + (disk.contents($1)?.count ?? 0) }
  }

  static func log(_ spool: TelemetrySpool, _ index: Int) -> UInt64? {
    spool.logs.log(
      level: .info, label: "app", message: "record \(index) " + String(repeating: "x", count: 60),
      metadata: ["index": .stringConvertible(String(index))])
  }

  /// The spool's own events that were raised but are not in the spool (nor suppressed): they
  /// met a full spool and were dropped like any record.
  static func eventsDropped(_ spool: TelemetrySpool, raised events: EventLog) throws -> UInt64 {
    let written = try Support.records(spool).count { $0.label == LogSpool.eventLabel }
    let waiting = spool.logs.state.withLock { $0.pendingEvents.count }
    return UInt64(events.events.count - spool.logs.suppressedEvents - written - waiting)
  }

  /// The app records' indices in the spool.
  static func indices(_ spool: TelemetrySpool) throws -> [Int] {
    try Support.records(spool).filter { $0.label == "app" }.compactMap {
      $0.metadata["index"].flatMap { Int($0.description) }
    }
  }

  @Test(
    "drop oldest: within the bound at every call; exactly the removed records counted, also after a restart"
  )
  func dropOldest() throws {
    let disk = SimulatedFileSystem()
    let options = Self.options(.dropOldest)
    let spool = try Support.open(disk, options: options)
    for index in 0..<1500 {
      #expect(Self.log(spool, index) != nil, "record \(index) was dropped")
      let stored = try Self.storedBytes(spool)
      #expect(stored <= options.logs.byteLimit, "record \(index): \(stored) bytes")
      if stored > options.logs.byteLimit { break }
    }
    #expect(spool.dropCounts.quota > 0)
    #expect(spool.dropCounts.quota == spool.logs.lowWaterMark)
    #expect(spool.dropCounts.total == spool.dropCounts.quota)
    let kept = try Self.indices(spool)
    #expect(kept.last == 1499)
    #expect(kept == Array((1500 - kept.count)..<1500), "the newest records are kept, in order")
    let quota = spool.dropCounts.quota
    try spool.close()
    #expect(Self.segmentFileBytes(disk) <= Int(options.logs.byteLimit))
    // Reopened, the counts are those persisted: a removal at open (close's sync marker may have
    // taken the journal over the high-water mark) is counted like any other.
    let again = try Support.open(disk, options: options)
    #expect(again.dropCounts.quota >= quota)
    #expect(again.dropCounts.quota == again.logs.lowWaterMark)
    let keptAgain = try Self.indices(again)
    #expect(keptAgain == Array(kept.suffix(keptAgain.count)) && keptAgain.last == 1499)
    try again.close()
  }

  @Test("drop newest: what is stored stays; every refused record is counted, also after a restart")
  func dropNewest() throws {
    let disk = SimulatedFileSystem()
    let options = Self.options(.dropNewest)
    let events = EventLog()
    let spool = try Support.open(disk, options: options, events: events.sink)
    var refused = 0
    var accepted: [Int] = []
    for index in 0..<600 {
      if Self.log(spool, index) == nil { refused += 1 } else { accepted.append(index) }
      #expect(try Self.storedBytes(spool) <= options.logs.byteLimit)
    }
    #expect(refused > 0)
    // Every refused record is counted, the spool's own events that met the full spool too.
    let eventsDropped = try Self.eventsDropped(spool, raised: events)
    #expect(spool.dropCounts.quota == UInt64(refused) + eventsDropped)
    #expect(spool.dropCounts.total == spool.dropCounts.quota)
    #expect(try Self.indices(spool) == accepted)
    #expect(accepted == Array(0..<accepted.count), "the oldest records are kept")
    // Acknowledged records dropped by the forwarder make room again; they are not drops.
    let counted = spool.dropCounts.quota
    try spool.logs.dropThrough(spool.logs.lastSequence / 2)
    #expect(Self.log(spool, 600) != nil)
    #expect(spool.dropCounts.quota == counted)
    try spool.close()
    #expect(Self.segmentFileBytes(disk) <= Int(options.logs.byteLimit))
    let again = try Support.open(disk, options: options)
    #expect(again.dropCounts.quota == counted)
    try again.close()
  }

  @Test(
    "block: a full spool makes the call wait at most its timeout, then drop; room made meanwhile lets it in"
  )
  func block() throws {
    let disk = SimulatedFileSystem()
    var options = Self.options(.block(timeout: .milliseconds(20)))
    let events = EventLog()
    let spool = try Support.open(disk, options: options, events: events.sink)
    var index = 0
    while Self.log(spool, index) != nil, index < 2000 { index += 1 }
    #expect(index < 2000, "the spool never filled")
    #expect(Self.log(spool, index + 1) == nil)
    // Two records refused after their wait; the spool's own events that met the full spool
    // (they never wait) are counted too.
    #expect(spool.dropCounts.quota == 2 + (try Self.eventsDropped(spool, raised: events)))
    try spool.close()

    // Room made while a caller waits lets it in.
    options.logs.whenFull = .block(timeout: .seconds(30))
    let waiting = try Support.open(disk, options: options)
    // Close wrote the drop event, which met the full spool too: counted.
    let counted = waiting.dropCounts.quota
    #expect(counted >= 2)
    let half = waiting.logs.lastSequence / 2
    let made = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      usleep(20_000)
      try? waiting.logs.dropThrough(half)
      made.signal()
    }
    #expect(Self.log(waiting, 10_000) != nil, "the call did not get the room made for it")
    made.wait()
    #expect(waiting.dropCounts.quota == counted)
    try waiting.close()
  }

  @Test("age: whole segments older than the limit are removed and counted; newer ones stay")
  func age() throws {
    let disk = SimulatedFileSystem()
    var options = Self.options(.dropOldest)
    options.logs.byteLimit = 1 << 20
    options.logs.segmentSize = 2 << 10
    options.logs.maximumAge = .seconds(1)
    let spool = try Support.open(disk, options: options)
    for index in 0..<100 { _ = Self.log(spool, index) }
    let old = spool.logs.lastSequence
    usleep(1_200_000)
    for index in 100..<200 { _ = Self.log(spool, index) }
    try spool.logs.enforceRetention()
    let dropped = spool.dropCounts.age
    #expect(dropped > 0 && dropped <= old, "\(dropped) of \(old) old records dropped")
    #expect(spool.logs.lowWaterMark == dropped)
    #expect(spool.dropCounts.quota == 0)
    let kept = try Self.indices(spool)
    #expect(kept == Array((200 - kept.count)..<200))
    #expect(kept.first ?? 0 < 100, "only whole segments go: the one the limit crosses stays")
    try spool.close()
    // Reopened later, more may have aged: counted the same way.
    let again = try Support.open(disk, options: options)
    #expect(again.dropCounts.age >= dropped)
    #expect(again.dropCounts.age == again.logs.lowWaterMark)
    try again.close()
  }

  @Test("drops are reported aggregated: a few events for many drops, with the exact counts")
  func aggregatedEvents() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    var options = Self.options(.dropNewest)
    // Longer than the loop can take on the slowest machine (under AddressSanitizer it has
    // taken seconds): the events below are the first report and the one `flush` forces.
    options.logs.dropEventInterval = .seconds(3600)
    let spool = try Support.open(disk, options: options, events: events.sink)
    var refused = 0
    for index in 0..<2000 where Self.log(spool, index) == nil { refused += 1 }
    try spool.flush()
    let reported = events.named(SpoolEvents.recordsDropped)
    #expect(refused > 1000)
    #expect(reported.count <= 3, "\(reported.count) events for \(refused) drops")
    // The counts of the events add up to the total of the last one; what came after it (the
    // event records that met the full spool) is counted and reported next time.
    let counts = reported.compactMap { $0["count"].flatMap(UInt64.init) }
    #expect(reported.last?["total"] == String(counts.reduce(0, +)))
    #expect(counts.reduce(0, +) >= UInt64(refused))
    let eventsDropped = try Self.eventsDropped(spool, raised: events)
    #expect(
      spool.dropCounts.quota == UInt64(refused) + eventsDropped,
      "\(refused) refused, \(eventsDropped) events dropped, \(events.events.map(\.name))")
    try spool.close()
  }
}

extension LogSpoolQuotaTests {
  @Test("compressSealedSegments leaves no sealed segment uncompressed and every record readable")
  func compressSealedSegmentsNow() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.byteLimit = 1 << 20
    options.logs.segmentSize = 2 << 10
    options.logs.backgroundMaintenance = true
    let spool = try Support.open(disk, options: options)
    for index in 0..<200 { _ = Self.log(spool, index) }
    try spool.flush()
    let before = try Support.records(spool).filter { $0.label == "app" }.map(\.message)
    try spool.logs.compressSealedSegments()
    let journal = try #require(spool.logs.currentJournal())
    let segments = try journal.segments()
    #expect(segments.count > 3)
    #expect(segments.dropLast().allSatisfy { $0.state == .compressed }, "\(segments)")
    #expect(try Support.records(spool).filter { $0.label == "app" }.map(\.message) == before)
    #expect(before.count { $0.hasPrefix("record ") } == 200)
    try spool.close()
    #expect(throws: StoreError.self) { try spool.logs.compressSealedSegments() }
  }
}
