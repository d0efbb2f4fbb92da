import Foundation
import StoicStore
import Testing

/// `stoic compact`: compresses a journal's sealed segments or compacts an outbox, keeping
/// every record and entry; refuses damaged stores and atomic files without changing a byte.
@Suite("stoic compact")
struct CompactCommandTests {
  @Test("a journal's sealed .log segments become .zst; every record reads back the same")
  func journal() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, compress: false)
      let sealed = try StoreFixtures.segments(directory, suffix: ".log").dropLast()
      #expect(sealed.count >= 3)
      let outcome = try StoicProcess.run(["compact", directory])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("compressed \(sealed.count) sealed segments"), "\(outcome)")
      #expect(outcome.error.isEmpty, "no progress line when piped: \(outcome.error)")
      #expect(try StoreFixtures.segments(directory, suffix: ".log").count == 1)
      #expect(try StoreFixtures.segments(directory, suffix: ".zst").count == sealed.count)
      let journal = try StoreFixtures.openJournal(directory)
      defer { try? journal.close() }
      #expect(try journal.records().map(\.payload) == (1...300).map(StoreFixtures.payload))
    }
  }

  @Test("an outbox is compacted into a snapshot; its entries stay as they were")
  func outbox() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/o"
      try await StoreFixtures.outbox(directory)
      let outcome = try StoicProcess.run(["compact", directory])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("outbox compacted into a snapshot"), "\(outcome)")
      #expect(FileManager.default.fileExists(atPath: directory + "/journal.checkpoint"))
      let outbox = try Outbox<String>(
        directory: directory, fileSystem: PosixFileSystem(), codec: .utf8,
        journalOptions: StoreFixtures.journalOptions())
      #expect(await outbox.pending.map(\.key) == ["key-3", "key-4", "key-5"])
      #expect(await outbox.pending.map(\.item) == ["item 3", "item 4", "item 5"])
      #expect(await outbox.parked.map(\.key) == ["key-2"])
      #expect(await outbox.parked.first?.lastError == "HTTP 400")
      #expect(await outbox.state(of: "key-1") == .delivered)
      try await outbox.close()
    }
  }

  @Test("a damaged store is refused with exit 1 and nothing changed; a file is not a directory")
  func refused() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, compress: false)
      let segment = try StoreFixtures.segments(directory, suffix: ".log")[1]
      try StoreFixtures.flipBit(segment, at: 100)
      try StoreFixtures.atomicFile(scratch + "/settings.json")
      let before = try StoreFixtures.fingerprint(scratch)
      let damaged = try StoicProcess.run(["compact", directory])
      #expect(damaged.status == 1, "\(damaged)")
      #expect(damaged.error.contains("compact refused and changed nothing"), "\(damaged)")
      #expect(damaged.output.contains("DAMAGE   \(StorePath.name(of: segment))"), "\(damaged)")
      let file = try StoicProcess.run(["compact", scratch + "/settings.json"])
      #expect(file.status == 66, "\(file)")
      #expect(try StoreFixtures.fingerprint(scratch) == before)
    }
  }

  @Test("a torn tail is cut by the open, as any open of the library does, and said so")
  func tornTail() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 20)
      let active = try StoreFixtures.activeSegment(directory)
      let size = try StoreFixtures.bytesOf(active).count
      try StoreFixtures.append(active, [1, 2, 3, 4])
      let outcome = try StoicProcess.run(["compact", directory])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("the open cut a torn tail of 4 bytes"), "\(outcome)")
      #expect(try StoreFixtures.bytesOf(active).count >= size)
      #expect(try StoicProcess.run(["verify", directory]).output.contains("torn tail") == false)
    }
  }
}
