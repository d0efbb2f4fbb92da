import Foundation
import StoicStore
import Testing

/// `stoic verify` against stores the library made on the real disk: exit 0 on every clean
/// one, 1 naming the damage on every one the library refuses, never a byte changed.
@Suite("stoic verify")
struct VerifyCommandTests {
  /// Runs `stoic verify` on `path` and checks that nothing under `root` changed.
  static func verify(_ path: String, root: String, _ extra: [String] = []) throws
    -> StoicProcess.Outcome
  {
    let before = try StoreFixtures.fingerprint(root)
    let outcome = try StoicProcess.run(["verify"] + extra + [path])
    #expect(try StoreFixtures.fingerprint(root) == before, "verify changed a file: \(outcome)")
    return outcome
  }

  /// A store and how it was made.
  struct Case: CustomTestStringConvertible, Sendable {
    init(
      name: String,
      make: @escaping @Sendable (String) async throws -> (path: String, names: [String])
    ) {
      self.name = name
      self.make = make
    }

    let name: String
    /// Makes the store under the scratch directory; returns its path and what the output
    /// must name (file names, offsets, reasons).
    let make: @Sendable (String) async throws -> (path: String, names: [String])
    var testDescription: String { name }
  }

  static let clean: [Case] = [
    Case(name: "compressed journal") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let count = try StoreFixtures.segments(scratch + "/j", suffix: "").count
      return (scratch + "/j", ["journal, \(count) segments, 300 records read (sequences 1…300)"])
    },
    Case(name: "uncompressed journal") { scratch in
      try StoreFixtures.journal(scratch + "/j", compress: false)
      return (scratch + "/j", ["300 records read (sequences 1…300)"])
    },
    Case(name: "empty journal") { scratch in
      try Journal.open(directory: scratch + "/j", fileSystem: PosixFileSystem()).close()
      return (scratch + "/j", ["journal, 1 segment, 0 records read"])
    },
    Case(name: "journal with a snapshot and dropped records") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let journal = try StoreFixtures.openJournal(
        scratch + "/j", options: StoreFixtures.journalOptions())
      try journal.writeSnapshot(covering: 150, bytes: Array(repeating: 7, count: 500))
      try journal.close()
      return (scratch + "/j", ["150 records read (sequences 151…300)"])
    },
    Case(name: "outbox with a parked entry") { scratch in
      try await StoreFixtures.outbox(scratch + "/o")
      return (scratch + "/o", ["outbox, 1 segment", "3 pending, 1 parked, 0 unreadable"])
    },
    Case(name: "compacted outbox") { scratch in
      try await StoreFixtures.outbox(scratch + "/o", compact: true)
      return (scratch + "/o", ["outbox, ", "3 pending, 1 parked, 0 unreadable"])
    },
    Case(name: "settings file with two generations") { scratch in
      try StoreFixtures.atomicFile(scratch + "/settings.json")
      return (
        scratch + "/settings.json",
        ["current ok (12-byte payload), previous ok (12-byte payload)"]
      )
    },
  ]

  @Test("a clean store: exit 0, nothing changed", arguments: clean)
  func cleanStore(_ store: Case) async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let (path, names) = try await store.make(scratch)
      let outcome = try Self.verify(path, root: scratch)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("clean: nothing the library would refuse"), "\(outcome)")
      for name in names { #expect(outcome.output.contains(name), "\(name): \(outcome)") }
      #expect(!outcome.output.contains("DAMAGE"))
      #expect(!outcome.output.contains("\u{1B}["), "no colour when piped")
      #expect(outcome.error.isEmpty, "no progress line when piped: \(outcome.error)")
    }
  }

  @Test("a torn tail is reported (file, offset, bytes) but is not damage: exit 0")
  func tornTail() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory)
      let active = try StoreFixtures.activeSegment(directory)
      let size = try StoreFixtures.bytesOf(active).count
      // The first 10 bytes of a frame header: an append cut short by a crash.
      try StoreFixtures.append(active, [0x30, 0, 0, 0, 0xAA, 0xBB, 0xCC, 0xDD, 0x2D, 0x01])
      let outcome = try Self.verify(directory, root: scratch)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(
        outcome.output.contains(
          "warning  \(StorePath.name(of: active)) at offset \(size) (10 bytes): torn tail"),
        "\(outcome)"
      )
      #expect(outcome.output.contains("clean: nothing the library would refuse (1 warning)"))
    }
  }

  /// `name at offset O` for frame `index` of a `.log` segment.
  static func frame(_ segment: String, _ index: Int) throws -> (offset: Int, name: String) {
    let offset = try StoreFixtures.frameOffsets(segment)[index]
    return (offset, "\(StorePath.name(of: segment)) at offset \(offset)")
  }

  static let damaged: [Case] = [
    Case(name: "bit flipped in a sealed segment") { scratch in
      try StoreFixtures.journal(scratch + "/j", compress: false)
      let segment = try StoreFixtures.segments(scratch + "/j", suffix: ".log")[2]
      let frame = try frame(segment, 3)
      try StoreFixtures.flipBit(segment, at: frame.offset + 30, bit: 3)
      return (scratch + "/j", [frame.name, "damaged inside durable data"])
    },
    Case(name: "zeros inside a sealed segment") { scratch in
      try StoreFixtures.journal(scratch + "/j", compress: false)
      let segment = try StoreFixtures.segments(scratch + "/j", suffix: ".log")[0]
      let frame = try frame(segment, 10)
      try StoreFixtures.zero(segment, at: frame.offset, count: 140)
      return (scratch + "/j", [frame.name])
    },
    Case(name: "bit flipped in the active segment before its last sync marker") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let active = try StoreFixtures.activeSegment(scratch + "/j")
      try StoreFixtures.flipBit(active, at: 25)
      return (scratch + "/j", [try frame(active, 0).name])
    },
    Case(name: "bit flipped in a compressed block") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let segment = try StoreFixtures.segments(scratch + "/j", suffix: ".zst")[2]
      try StoreFixtures.flipBit(segment, at: 50, bit: 6)
      return (
        scratch + "/j", ["\(StorePath.name(of: segment)) at offset 20", "block checksum mismatch"]
      )
    },
    Case(name: "a compressed segment cut short") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let segment = try StoreFixtures.segments(scratch + "/j", suffix: ".zst")[1]
      let bytes = try StoreFixtures.bytesOf(segment)
      try Data(bytes.prefix(bytes.count - 20)).write(to: URL(fileURLWithPath: segment))
      // Its name records its size: the read that reaches it refuses the shorter file.
      return (
        scratch + "/j", [StorePath.name(of: segment), "the segment is", "its name records"]
      )
    },
    Case(name: "bit flipped in the checkpoint") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let journal = try StoreFixtures.openJournal(
        scratch + "/j", options: StoreFixtures.journalOptions())
      try journal.dropThrough(100)
      try journal.close()
      try StoreFixtures.flipBit(scratch + "/j/journal.checkpoint", at: 12)
      return (scratch + "/j", ["journal.checkpoint", "checkpoint is damaged"])
    },
    Case(name: "bit flipped in an outbox's journal") { scratch in
      try await StoreFixtures.outbox(scratch + "/o")
      let active = try StoreFixtures.activeSegment(scratch + "/o")
      try StoreFixtures.flipBit(active, at: 30)
      return (scratch + "/o", [try frame(active, 0).name])
    },
    Case(name: "bit flipped in a settings file's current generation") { scratch in
      try StoreFixtures.atomicFile(scratch + "/settings.json")
      try StoreFixtures.flipBit(scratch + "/settings.json", at: 25)
      return (
        scratch + "/settings.json",
        ["DAMAGE   settings.json: the current generation is unusable: checksum mismatch"]
      )
    },
    Case(name: "bit flipped in a settings file's previous generation") { scratch in
      try StoreFixtures.atomicFile(scratch + "/settings.json")
      try StoreFixtures.flipBit(scratch + "/settings.json.previous", at: 25)
      return (
        scratch + "/settings.json",
        ["DAMAGE   settings.json.previous: the previous generation is unusable: checksum mismatch"]
      )
    },
    Case(name: "a compressed segment of a newer format") { scratch in
      try StoreFixtures.journal(scratch + "/j")
      let segment = try StoreFixtures.segments(scratch + "/j", suffix: ".zst")[0]
      try StoreFixtures.rewriteCompressedVersion(segment, to: 3)
      return (scratch + "/j", [StorePath.name(of: segment), "unsupported format version 3"])
    },
    Case(name: "a settings file of a newer envelope format") { scratch in
      try StoreFixtures.atomicFile(scratch + "/settings.json")
      try StoreFixtures.rewriteEnvelopeVersion(scratch + "/settings.json", to: 2)
      return (scratch + "/settings.json", ["settings.json", "unknown envelope version 2"])
    },
    Case(name: "an outbox snapshot of a newer format") { scratch in
      try await StoreFixtures.outbox(scratch + "/o", compact: true)
      try StoreFixtures.rewriteOutboxSnapshotVersion(scratch + "/o", to: 2)
      return (scratch + "/o", ["journal.checkpoint", "format 2, newer than this build reads"])
    },
  ]

  @Test("damage the library refuses: exit 1, the damage named, nothing changed", arguments: damaged)
  func damagedStore(_ store: Case) async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let (path, names) = try await store.make(scratch)
      let outcome = try Self.verify(path, root: scratch)
      #expect(outcome.status == 1, "\(outcome)")
      #expect(outcome.output.contains("DAMAGE"), "\(outcome)")
      #expect(outcome.output.contains("damaged: "), "\(outcome)")
      for name in names { #expect(outcome.output.contains(name), "\(name): \(outcome)") }
      let json = try StoicProcess.run(["verify", "--json", path])
      #expect(json.status == 1)
      let document =
        try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
      #expect(document?["status"] as? String == "damaged")
      let findings = document?["findings"] as? [[String: Any]] ?? []
      #expect(findings.contains { $0["severity"] as? String == "damage" && $0["file"] is String })
    }
  }

  @Test("damage in two segments: every damaged segment is named, and the rest is read")
  func severalDamages() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, compress: false)
      try StoreFixtures.compressSome(directory)
      let logs = try StoreFixtures.segments(directory, suffix: ".log")
      let compressed = try StoreFixtures.segments(directory, suffix: ".zst")
      let frame = try Self.frame(logs[0], 1)
      try StoreFixtures.flipBit(logs[0], at: frame.offset + 20)
      try StoreFixtures.flipBit(compressed[0], at: 60)
      let outcome = try Self.verify(directory, root: scratch)
      #expect(outcome.status == 1, "\(outcome)")
      #expect(outcome.output.contains(frame.name), "\(outcome)")
      #expect(
        outcome.output.contains(StorePath.name(of: compressed[0]) + " at offset 20"), "\(outcome)")
      #expect(outcome.output.contains("damaged: 2 findings"), "\(outcome)")
    }
  }

  @Test("quarantined files from an earlier salvage are listed as notes; the store is clean")
  func quarantined() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, compress: false)
      try StoreFixtures.flipBit(try StoreFixtures.segments(directory, suffix: ".log")[1], at: 100)
      var options = StoreFixtures.journalOptions()
      options.salvage = true
      try StoreFixtures.openJournal(directory, options: options).close()
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      let aside = try #require(names.first { $0.contains(".corrupt-") })
      let outcome = try Self.verify(directory, root: scratch)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(
        outcome.output.contains("note     \(aside): quarantined by an earlier recovery"),
        "\(outcome)")
    }
  }

  @Test("a store that cannot be read is exit 2, not damage")
  func unreadable() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 10)
      try FileManager.default.createDirectory(
        atPath: directory + "/journal-00000000000fffff.log", withIntermediateDirectories: false)
      let outcome = try Self.verify(directory, root: scratch)
      #expect(outcome.status == 2, "\(outcome)")
      #expect(outcome.output.contains("could not read"), "\(outcome)")
    }
  }

  @Test("a frame larger than --max-record-size is refused, as the library would with that option")
  func maxRecordSize() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      let journal = try StoreFixtures.openJournal(
        directory, options: JournalOptions(syncPolicy: .never, maxRecordSize: 8192))
      _ = try journal.append([UInt8](repeating: 1, count: 5000))
      _ = try journal.append([UInt8](repeating: 2, count: 100))
      try journal.close()
      #expect(try Self.verify(directory, root: scratch).status == 0)
      let small = try Self.verify(directory, root: scratch, ["--max-record-size", "4K"])
      #expect(small.status == 1, "\(small)")
    }
  }
}
