import StoicStore
import StoicTesting
import Testing

/// The README's Journal and Outbox examples, run on the simulated disk so they stay true.
@Suite("README examples")
struct ReadmeExampleTests {
  @Test("the journal example appends, reads back in order and snapshots")
  func journalExample() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("/var/lib/app/spool")
    let journal = try Journal.open(
      directory: "/var/lib/app/spool", fileSystem: disk,
      options: JournalOptions(syncPolicy: .everyRecords(1000)))
    let line = "info request served"
    let errorLine = "error upstream refused"
    let sequence = try journal.append(Array(line.utf8))
    try journal.append(Array(errorLine.utf8), durable: true)
    var seen: [String] = []
    try journal.forEachRecord(from: 1) { record in
      seen.append(String(decoding: record.payload, as: UTF8.self))
    }
    #expect(seen == [line, errorLine])
    try journal.writeSnapshot(covering: sequence, bytes: Array("state".utf8))
    try journal.close()

    let reopened = try Journal.open(directory: "/var/lib/app/spool", fileSystem: disk)
    #expect(try reopened.snapshot()?.bytes == Array("state".utf8))
    #expect(try reopened.records(from: 1).map(\.payload) == [Array(errorLine.utf8)])
    try reopened.close()
  }

  @Test("the outbox example delivers under the batch key and reports parked entries")
  func outboxExample() async throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("/var/lib/app/outbox")
    try disk.createDirectory("/app/media")
    disk.setDurableContents("/app/media/p1.jpg", [1, 2, 3])
    let outbox = try Outbox<String>(
      directory: "/var/lib/app/outbox", fileSystem: disk, codec: .utf8)
    try await outbox.enqueue(#"{"note":"trail"}"#, key: "01HZX", ownedFiles: ["/app/media/p1.jpg"])
    try await outbox.enqueue(#"{"note":"tunnel"}"#, key: "01HZY")
    let report = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 50)) {
      batch in
      #expect(batch.entries.map(\.key) == ["01HZX", "01HZY"])
      #expect(!batch.key.isEmpty)
      return .http(status: 200, retryAfter: nil)
    }
    #expect(report.delivered == 2)
    #expect(await outbox.parked.isEmpty)
    #expect(await outbox.unreadable.isEmpty)
    #expect(disk.contents("/app/media/p1.jpg") == nil, "owned files are removed on retirement")
  }
}
