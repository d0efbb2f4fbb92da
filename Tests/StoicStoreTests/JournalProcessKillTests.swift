import Foundation
import StoicStore
import Testing

/// A real process writes a journal on the real disk and is killed with SIGKILL in the middle
/// of appending; the journal must reopen with every record whose append had returned.
///
/// The test binary plays both parts: run normally, the test starts the same binary again,
/// filtered to this test, with `STOIC_JOURNAL_KILL_CHILD` naming a directory; in that child
/// the test appends forever (recording each returned sequence in an unsynced side file) until
/// the parent kills it.
@Suite("Journal survives SIGKILL of a real writer process")
struct JournalProcessKillTests {
  static let childVariable = "STOIC_JOURNAL_KILL_CHILD"

  static func options() -> JournalOptions {
    // `never`: nothing is synced, so only "the record is in the kernel before append returns"
    // makes the acknowledged records survive. Small segments so rolls and compression happen.
    JournalOptions(syncPolicy: .never, segmentSize: 16 << 10, readWindow: 4096)
  }

  @Test("SIGKILL mid-append: every record whose append returned is there after reopen")
  func killedWriter() throws {
    if let directory = ProcessInfo.processInfo.environment[Self.childVariable] {
      Self.runChild(directory)
    }
    try PosixScratchDirectory.with { scratch in
      let acknowledged = try Self.runAndKillChild(scratch)
      #expect(acknowledged.count >= 5000)
      let journal = try Journal.open(
        directory: scratch + "/journal", fileSystem: PosixFileSystem(), options: Self.options())
      defer { try? journal.close() }
      let records = try journal.records()
      #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))
      #expect(records.allSatisfy { $0.payload == JournalTestSupport.payload($0.sequence) })
      #expect(records.count >= acknowledged.count)
      #expect(acknowledged == Array(1...UInt64(acknowledged.count)))
      // Rolls happened, so the kill could land in a roll or a compression.
      let names = try PosixFileSystem().list(scratch + "/journal")
      #expect(names.contains { $0.hasSuffix(".zst") })
    }
  }

  /// Starts the child, waits until it acknowledged enough records, kills it with SIGKILL, and
  /// returns the sequences it acknowledged.
  static func runAndKillChild(_ scratch: String) throws -> [UInt64] {
    let child = try TestBinaryChild.process(
      filter: "JournalProcessKillTests", environment: [childVariable: scratch])
    try child.run()
    let acks = scratch + "/acks"
    var polls = 0
    // Wait (up to about a minute) for enough acknowledged appends, then kill mid-stream.
    while polls < 6000 && child.isRunning {
      let size = (try? FileManager.default.attributesOfItem(atPath: acks)[.size] as? Int) ?? 0
      if size >= 8 * 20000 { break }
      usleep(10_000)
      polls += 1
    }
    let wasRunning = child.isRunning
    // One writer: while the child holds the journal, this process cannot open it.
    do {
      let intruder = try Journal.open(
        directory: scratch + "/journal", fileSystem: PosixFileSystem(), options: options())
      try? intruder.close()
      Issue.record("a second process opened a journal that the child held")
    } catch {
      #expect(!wasRunning || error.code == .locked, "\(error)")
    }
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    #expect(wasRunning, "the child stopped before it was killed")
    #expect(child.terminationReason == .uncaughtSignal)
    let data = FileManager.default.contents(atPath: acks) ?? Data()
    let bytes = [UInt8](data)
    return stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { start in
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * $1) }
    }
  }

  /// The child's part: append until killed. Exits with a status the parent would notice if
  /// anything fails.
  static func runChild(_ scratch: String) -> Never {
    let acks = open(scratch + "/acks", O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard acks >= 0,
      let journal = try? Journal.open(
        directory: scratch + "/journal", fileSystem: PosixFileSystem(), options: options())
    else { exit(3) }
    var next: UInt64 = 1
    while true {
      let count: UInt64 = next % 7 == 0 ? 3 : 1
      let payloads = (next..<(next + count)).map(JournalTestSupport.payload)
      guard let sequences = try? journal.append(batch: payloads), sequences.lowerBound == next
      else { exit(4) }
      for sequence in sequences {
        var value = sequence.littleEndian
        guard write(acks, &value, 8) == 8 else { exit(5) }
      }
      next = sequences.upperBound
    }
  }
}
