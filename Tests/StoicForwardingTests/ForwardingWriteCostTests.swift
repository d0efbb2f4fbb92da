import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

@testable import StoicForwarding

/// What forwarding costs the disk: the bytes the forwarder writes (its outbox, and the spool's
/// checkpoints when records leave it) per forwarded record, against the record's spooled size.
/// An outbox entry names a range, so the cost is a few bytes per batch, not a second copy.
/// The benchmark measures the same on the real disk; this prints it and bounds it.
@Suite("Forwarding write cost")
struct ForwardingWriteCostTests {
  @Test("bytes written by forwarding per record stay under a fifth of its spooled size")
  func writeCost() async throws {
    let disk = MeteredFileSystem(SimulatedFileSystem())
    let spool = try ForwarderFixture.openSpool(disk)
    let records = 5000
    for index in 0..<records { ForwarderFixture.log(spool, index) }
    try spool.flush()
    let spooled = disk.reset()
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: ForwarderFixture.exporter(FakeReceiver()),
      options: ForwarderFixture.options(maxRecords: 1000), fileSystem: disk)
    let report = try await forwarder.drain()
    try await forwarder.close()
    let forwarding = disk.reset()
    try spool.close()
    #expect(report.logRecordsDelivered >= records)
    let perRecordSpooled = Double(spooled.bytesWritten) / Double(report.logRecordsDelivered)
    let perRecordForwarding = Double(forwarding.bytesWritten) / Double(report.logRecordsDelivered)
    let ratio = (perRecordSpooled + perRecordForwarding) / perRecordSpooled
    print(
      "forwarding write cost: \(report.logRecordsDelivered) records in \(report.batchesDelivered) "
        + "batches; spooled \(spooled.bytesWritten) bytes (\(perRecordSpooled) per record), "
        + "forwarding wrote \(forwarding.bytesWritten) bytes (\(perRecordForwarding) per record) "
        + "and \(forwarding.syncs) syncs; disk bytes per forwarded record = \(ratio) × spooled")
    #expect(ratio <= 1.2, "forwarding writes \(ratio) × the spooled bytes")
  }

  @Test("a batch is formed without a sync when the durable records fill it, with one otherwise")
  func batchSyncsOnlyWhenShort() throws {
    let disk = MeteredFileSystem(SimulatedFileSystem())
    // One segment: no roll seals (and syncs) the records behind the test's back.
    var options = ForwarderFixture.spoolOptions()
    options.logs.segmentSize = 1 << 20
    let spool = try TelemetrySpool.open(
      at: ForwarderFixture.root, options: options, fileSystem: disk)
    let source = SpoolBatchSource(
      spool: spool, options: ForwarderFixture.options(maxRecords: 100))
    // At `info`, below the durable level: only a sync makes them durable.
    for index in 0..<300 {
      spool.logs.log(level: .info, label: "app", message: "record \(index)")
      if index == 249 { try spool.flush() }
    }
    // 250 durable, 50 only in the kernel: the first two batches need no sync.
    _ = disk.reset()
    let first = try #require(try source.formBatch(.logs, from: 1))
    let second = try #require(try source.formBatch(.logs, from: first.last + 1))
    #expect(disk.reset().syncs == 0)
    #expect(spool.logs.durableSequence == 250)
    #expect(first.last - first.first + 1 == 100 && second.last == 200)
    // 50 durable left, fewer than a batch: the sync makes the 50 after them durable too.
    let third = try #require(try source.formBatch(.logs, from: second.last + 1))
    #expect(disk.reset().syncs > 0)
    #expect(third.last == 300, "\(third)")
    #expect(!SpoolBatchSource.needsSync(durable: 300, last: 300, from: 1, batch: 100))
    #expect(!SpoolBatchSource.needsSync(durable: 200, last: 300, from: 1, batch: 100))
    #expect(SpoolBatchSource.needsSync(durable: 200, last: 300, from: 150, batch: 100))
    #expect(SpoolBatchSource.needsSync(durable: 0, last: 300, from: 1, batch: 100))
    #expect(!SpoolBatchSource.needsSync(durable: 0, last: 0, from: 1, batch: 100))
    try spool.close()
  }

  @Test("a drain's round ends at what was logged before it: later records go only in whole batches")
  func roundEndsAtItsStart() async throws {
    let disk = SimulatedFileSystem()
    // The app logs three records during each send of the first drain.
    let during = SleepingLock<(spool: TelemetrySpool?, logged: Int)>((nil, 10))
    let receiver = FakeReceiver { _ in
      during.withLock { state in
        // At most 30 records: a round that chased them would still end.
        guard let spool = state.spool, state.logged < 40 else { return }
        for _ in 0..<3 {
          ForwarderFixture.log(spool, state.logged)
          state.logged += 1
        }
      }
    }
    let spool = try ForwarderFixture.openSpool(disk)
    for index in 0..<10 { ForwarderFixture.log(spool, index) }
    during.withLock { $0.spool = spool }
    let forwarder = try await ForwarderFixture.open(spool, receiver, disk: disk)
    // Batches of 5: records 1-10 in two, 11-15 whole; 16-19 (logged during the third send)
    // are fewer than a batch and wait. A round that chased them would send 16-19, see three
    // more, and so on.
    let first = try await forwarder.drain()
    let loggedDuringFirst = during.withLock { state in
      state.spool = nil
      return state.logged - 10
    }
    #expect(first.batchesDelivered == 3, "\(first)")
    #expect(first.logRecordsDelivered == 15)
    #expect(loggedDuringFirst == 9)
    // The next drain sends them: nothing is left behind.
    let second = try await forwarder.drain()
    #expect(second.logRecordsDelivered == 4, "\(second)")
    #expect(try ForwarderFixture.appSequences(receiver) == Array(0..<19))
    try await forwarder.close()
    try spool.close()
    #expect(SpoolBatchSource.formsBatch(from: 10, roundEnd: 10, last: 10, batch: 5))
    #expect(SpoolBatchSource.formsBatch(from: 11, roundEnd: 10, last: 15, batch: 5))
    #expect(!SpoolBatchSource.formsBatch(from: 11, roundEnd: 10, last: 14, batch: 5))
    #expect(!SpoolBatchSource.formsBatch(from: 11, roundEnd: 10, last: 0, batch: 5))
    #expect(SpoolBatchSource.formsBatch(from: 11, roundEnd: 10, last: 11, batch: 1))
  }
}
