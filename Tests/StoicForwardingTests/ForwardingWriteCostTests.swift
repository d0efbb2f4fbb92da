import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

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
}
