import Foundation
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// A full disk and a failed sync: the log call drops and counts, never traps, says so once, and
/// logging resumes by itself once the disk recovers.
@Suite("LogSpool on a full or failing disk")
struct LogSpoolDiskErrorTests {
  typealias Support = SpoolTestSupport

  static func log(_ spool: TelemetrySpool, _ index: Int, level: LogLevel = .info) -> UInt64? {
    spool.logs.log(
      level: level, label: "app", message: "record \(index) " + String(repeating: "y", count: 900))
  }

  /// The spool's events raised but neither written, suppressed, nor waiting: dropped.
  static func eventsDropped(_ spool: TelemetrySpool, _ events: EventLog) throws -> UInt64 {
    let written = try Support.records(spool).count { $0.label == LogSpool.eventLabel }
    let waiting = spool.logs.state.withLock { $0.pendingEvents.count }
    return UInt64(events.events.count - spool.logs.suppressedEvents - written - waiting)
  }

  @Test("simulated ENOSPC: drops counted, reported once, logging resumes when space returns")
  func simulatedFullDisk() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let spool = try Support.open(disk, events: events.sink)
    var stored: [UInt64] = []
    for index in 0..<3 { stored.append(try #require(Self.log(spool, index))) }
    // The disk fills: no block can be reserved, no write lands, ten times over.
    for nth in 1...10 {
      disk.inject(.noSpaceOnMap(nth: nth))
      disk.inject(.noSpaceOnWrite(nth: nth))
    }
    var refused = 0
    for index in 3..<200 {
      if let sequence = Self.log(spool, index) { stored.append(sequence) } else { refused += 1 }
    }
    #expect(refused > 0)
    #expect(spool.dropCounts.diskError == UInt64(refused) + (try Self.eventsDropped(spool, events)))
    #expect(events.named(SpoolEvents.writeFailed).count >= 1)
    #expect(events.named(SpoolEvents.writeResumed).count >= 1)
    // The space came back (the faults are spent): the last calls went in.
    #expect(spool.logs.isWritable)
    #expect(stored.count == 200 - refused)
    #expect(Self.log(spool, 200) != nil)
    let diskErrors = spool.dropCounts.diskError
    try spool.close()
    let again = try Support.open(disk)
    let present = Set(try Support.records(again).map(\.sequence))
    #expect(Set(stored).isSubset(of: present), "a record whose call returned is missing")
    #expect(again.dropCounts.diskError == diskErrors)
    try again.close()
  }

  @Test("a spool that is not writable drops at once: one counter write, nothing in the journal")
  func failingStateIsCheap() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.recoveryInterval = .seconds(3600)
    let spool = try Support.open(disk, options: options)
    disk.inject(.noSpaceOnMap(nth: 1))
    disk.inject(.noSpaceOnWrite(nth: 1))
    var index = 0
    while Self.log(spool, index) != nil, index < 100 { index += 1 }
    #expect(!spool.logs.isWritable)
    let journalFiles = disk.allPaths().filter { $0.hasPrefix(Support.root + "/logs/") }
    let contents = journalFiles.map { disk.contents($0) }
    let operations = disk.operationCount
    for more in 0..<50 { #expect(Self.log(spool, index + 1 + more) == nil) }
    // One write of the drop counter each (into its mapping: no system call on a real disk).
    #expect(disk.operationCount == operations + 50)
    #expect(journalFiles.map { disk.contents($0) } == contents, "a dropping call wrote the journal")
    #expect(spool.dropCounts.diskError == 51)
    try? spool.close()
  }

  @Test(
    "EIO on a sync poisons the journal: the record is dropped and counted, the spool reopens it and resumes"
  )
  func poisonedJournal() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let spool = try Support.open(disk, events: events.sink)
    let before = try #require(Self.log(spool, 0, level: .error))
    disk.inject(.ioErrorOnSync(nth: 1))
    #expect(Self.log(spool, 1, level: .error) == nil)
    #expect(spool.dropCounts.diskError >= 1)
    // The next call finds the spool not writable (and drops); maintenance after it reopens.
    _ = Self.log(spool, 2)
    let after = try #require(Self.log(spool, 3, level: .error))
    #expect(after > before)
    #expect(events.named(SpoolEvents.writeFailed).first?["error"]?.contains("io") == true)
    #expect(events.named(SpoolEvents.writeResumed).first?["reopened"] == "true")
    try spool.close()
    let again = try Support.open(disk)
    let messages = try Support.records(again).filter { $0.label == "app" }.map(\.message)
    #expect(messages.first?.hasPrefix("record 0 ") == true)
    #expect(messages.last?.hasPrefix("record 3 ") == true)
    try again.close()
  }

  @Test(
    "a real full tmpfs: drops and counts, never crashes, resumes when the file system grows",
    .enabled(if: Tmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func realFullDisk() throws {
    try Tmpfs.withMount(size: "512k") { mount in
      let root = mount + "/spool"
      var options = TelemetryOptions()
      options.logs.segmentSize = 64 << 10
      options.logs.recoveryInterval = .milliseconds(5)
      options.logs.resumeFreeSpace = 128 << 10
      let events = EventLog()
      let spool = try TelemetrySpool.open(at: root, options: options, events: events.sink)
      var stored: [UInt64] = []
      var index = 0
      while spool.dropCounts.diskError == 0, index < 5000 {
        if let sequence = Self.log(spool, index) { stored.append(sequence) }
        index += 1
      }
      #expect(spool.dropCounts.diskError > 0, "the tmpfs never filled")
      for more in 0..<200 {
        if let sequence = Self.log(spool, index + more) { stored.append(sequence) }
      }
      #expect(events.named(SpoolEvents.writeFailed).count >= 1)
      try Tmpfs.remount(mount, size: "8m")
      var resumed: UInt64?
      var attempts = 0
      while resumed == nil, attempts < 10_000 {
        resumed = Self.log(spool, 100_000 + attempts)
        if resumed == nil { usleep(1000) }
        attempts += 1
      }
      let sequence = try #require(resumed, "logging did not resume after the tmpfs grew")
      stored.append(sequence)
      let diskErrors = spool.dropCounts.diskError
      try spool.close()
      let again = try Support.reopen(at: root, options: options)
      let present = Set(try Support.records(again).map(\.sequence))
      #expect(Set(stored).isSubset(of: present), "a record whose call returned is missing")
      #expect(again.dropCounts.diskError == diskErrors)
      try again.close()
    }
  }
}
