import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The log spool on the simulated disk: what a log call stores, when it is durable, how it is
/// read back, and what the spool says about itself.
@Suite("LogSpool: logging, durability, reading")
struct LogSpoolTests {
  typealias Support = SpoolTestSupport

  @Test("records are read back in order, whole, by range and as encoded bytes")
  func logAndRead() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    var sequences: [UInt64] = []
    for index in 0..<50 {
      let sequence = spool.logs.log(
        level: LogLevel.allCases[index % 7], label: "app", message: "record \(index)",
        metadata: ["index": .stringConvertible(String(index))], source: "tests",
        file: "File.swift", function: "f()", line: UInt(index))
      sequences.append(try #require(sequence))
    }
    #expect(sequences == Array(1...50))
    #expect(spool.logs.lastSequence == 50)
    var seen: [LogRecord] = []
    let summary = try spool.logs.forEachRecord { entry in
      if let record = entry.record, record.label == "app" { seen.append(record) }
    }
    #expect(seen.map(\.message) == (0..<50).map { "record \($0)" })
    #expect(seen.map(\.line) == (0..<50).map(UInt.init))
    #expect(seen.allSatisfy { $0.metadata["index"] == .stringConvertible(String($0.line)) })
    #expect(summary.records == 50 && summary.unreadable == 0 && summary.lastSequence == 50)
    let middle = try spool.logs.entries(from: 10, through: 19)
    #expect(middle.map(\.sequence) == Array(10...19))
    #expect(try spool.logs.entries(from: 5, limit: 3).map(\.sequence) == [5, 6, 7])
    var errors: [UInt64] = []
    try spool.logs.forEachEncodedRecord { sequence, bytes in
      if LogRecordFormat.header(of: bytes)?.level == .error { errors.append(sequence) }
    }
    #expect(errors == sequences.filter { ($0 - 1) % 7 == 5 })
    try spool.close()
  }

  @Test("a record at the durable level is durable when the call returns; the others after a flush")
  func durableLevel() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    spool.logs.log(level: .info, label: "app", message: "before")
    #expect(try Support.messages(onDurableCopyOf: disk).isEmpty)
    spool.logs.log(level: .error, label: "app", message: "failure")
    #expect(try Support.messages(onDurableCopyOf: disk) == ["before", "failure"])
    spool.logs.log(level: .warning, label: "app", message: "after")
    #expect(try Support.messages(onDurableCopyOf: disk) == ["before", "failure"])
    try spool.flush()
    #expect(try Support.messages(onDurableCopyOf: disk) == ["before", "failure", "after"])
    try spool.close()
  }

  @Test("with no durable level, no call waits for a sync")
  func noDurableLevel() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.durableLevel = nil
    let spool = try Support.open(disk, options: options)
    spool.logs.log(level: .critical, label: "app", message: "not synced")
    #expect(try Support.messages(onDurableCopyOf: disk).isEmpty)
    try spool.close()
  }

  @Test("the background flush makes a record durable within the maximum delay")
  func backgroundFlush() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.maxDelay = .milliseconds(20)
    let spool = try Support.open(disk, options: options)
    let sequence = try #require(spool.logs.log(level: .info, label: "app", message: "later"))
    var waited = 0
    while spool.logs.durableSequence < sequence, waited < 5000 {
      usleep(1000)
      waited += 1
    }
    #expect(spool.logs.durableSequence >= sequence)
    #expect(try Support.messages(onDurableCopyOf: disk) == ["later"])
    try spool.close()
  }

  @Test("a record larger than the largest record is dropped, counted and reported")
  func oversized() throws {
    let disk = SimulatedFileSystem()
    var options = Support.options()
    options.logs.maxRecordSize = 200
    let events = EventLog()
    let spool = try Support.open(disk, options: options, events: events.sink)
    #expect(
      spool.logs.log(level: .info, label: "app", message: String(repeating: "x", count: 300)) == nil
    )
    #expect(spool.logs.log(level: .info, label: "app", message: "fits") != nil)
    #expect(spool.dropCounts.encoding == 1 && spool.dropCounts.total == 1)
    try spool.flush()
    let dropped = events.named(SpoolEvents.recordsDropped)
    #expect(dropped.map { $0["reason"] } == ["encoding"])
    #expect(dropped.first?["count"] == "1" && dropped.first?["total"] == "1")
    // The event is also a record of the spool, under its reserved label.
    let written = try Support.records(spool).filter { $0.label == LogSpool.eventLabel }
    #expect(written.map(\.message) == ["spool.records_dropped"])
    #expect(written.first?.metadata["reason"] == .string("encoding"))
    try spool.close()
    let again = try Support.open(disk, options: options)
    #expect(again.dropCounts.encoding == 1)
    try again.close()
  }

  @Test("a record a newer build wrote is kept, handed out as unreadable, and counted")
  func newerRecordKept() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    spool.logs.log(level: .info, label: "app", message: "first")
    try spool.close()
    var newer = LogRecordFormat.encode(
      LogRecord(timeNanoseconds: 5, level: .error, label: "app", message: "from the future"))
    newer[0] = 2
    newer.append(0xEE)
    let journal = try Journal.open(
      directory: Support.root + "/logs", fileSystem: disk,
      options: Support.options().logs.journalOptions)
    let newerSequence = try journal.append(newer)
    try journal.close()
    let reopened = try Support.open(disk)
    reopened.logs.log(level: .info, label: "app", message: "after")
    var unreadable: [UnreadableLogRecord] = []
    var messages: [String] = []
    let summary = try reopened.logs.forEachRecord { entry in
      switch entry {
      case .record(let record): messages.append(record.message)
      case .unreadable(let entry): unreadable.append(entry)
      }
    }
    #expect(messages == ["first", "after"])
    #expect(unreadable.map(\.sequence) == [newerSequence])
    #expect(unreadable.first?.bytes == newer && unreadable.first?.version == 2)
    #expect(unreadable.first?.header?.level == .error)
    #expect(summary.unreadable == 1 && summary.newerVersion == 1 && summary.records == 2)
    #expect(reopened.dropCounts.total == 0)
    try reopened.close()
  }

  @Test("a second opener gets .locked naming the holder's process id; after close it opens")
  func lockNamesHolder() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    let error = #expect(throws: StoreError.self) { try Support.open(disk) }
    #expect(error?.code == .locked)
    #expect(error?.message.contains("process \(getpid())") == true, "\(String(describing: error))")
    try spool.close()
    let again = try Support.open(disk)
    #expect(again.identity == spool.identity)
    try again.close()
  }

  @Test("the identity is made once, durably, and kept; a damaged one is replaced and reported")
  func identity() throws {
    let disk = SimulatedFileSystem()
    let first = try Support.open(disk)
    let identity = first.identity
    try first.close()
    let durable = disk.crashedDurableOnly()
    let second = try Support.open(durable)
    #expect(second.identity == identity)
    #expect(identity.hex.count == 32 && SpoolIdentity(hex: identity.hex) == identity)
    try second.close()
    let path = Support.root + "/" + TelemetrySpool.identityName
    for file in [path, path + ".previous"] where disk.contents(file) != nil {
      disk.setDurableContents(file, Array("not an identity".utf8))
    }
    let events = EventLog()
    let third = try Support.open(disk, events: events.sink)
    #expect(third.identity != identity)
    #expect(events.named(SpoolEvents.identityReplaced).count == 1)
    try third.close()
  }

  @Test("the drop counts survive a restart; a damaged counters file is set aside and reported")
  func dropCountsPersist() throws {
    let disk = SimulatedFileSystem()
    let spool = try Support.open(disk)
    spool.dropCounters.add(3, reason: .quota)
    spool.dropCounters.add(2, reason: .age)
    try spool.close()
    let again = try Support.open(disk)
    #expect(again.dropCounts.quota == 3 && again.dropCounts.age == 2 && again.dropCounts.total == 5)
    try again.close()
    disk.setDurableContents(Support.root + "/drops", [UInt8](repeating: 7, count: 700))
    let events = EventLog()
    let reset = try Support.open(disk, events: events.sink)
    #expect(reset.dropCounts.total == 0)
    let reported = events.named(SpoolEvents.dropCountsReset)
    #expect(reported.count == 1)
    #expect(reported.first?["quarantinedAs"] == Support.root + "/drops.corrupt-1")
    #expect(disk.contents(Support.root + "/drops.corrupt-1") == [UInt8](repeating: 7, count: 700))
    try reset.close()
  }

  @Test("the combined catalog holds the store's events a spool raises and the spool's, no outbox's")
  func catalog() {
    let catalog = TelemetrySpool.eventCatalog
    for entry in SpoolEvents.storeCatalog.entries + SpoolEvents.catalog.entries {
      #expect(catalog.contains(entry))
      #expect(entry.name.hasPrefix("spool.") || StoreEvents.catalog.contains(entry))
    }
    #expect(
      catalog.entries.count
        == SpoolEvents.storeCatalog.entries.count + SpoolEvents.catalog.entries.count)
    #expect(!catalog.entries.contains { $0.name.hasPrefix("store.outbox_") })
  }
}
