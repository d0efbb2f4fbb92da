import Foundation
import StoicStore
import Testing

/// `stoic inspect` on stores the library made: what it shows, in a table and as JSON, and that
/// it changes nothing.
@Suite("stoic inspect")
struct InspectCommandTests {
  /// Runs `stoic inspect`, checks nothing under `root` changed, and returns the outcome.
  static func inspect(_ arguments: [String], root: String, environment: [String: String] = [:])
    throws -> StoicProcess.Outcome
  {
    let before = try StoreFixtures.fingerprint(root)
    let outcome = try StoicProcess.run(["inspect"] + arguments, environment: environment)
    #expect(try StoreFixtures.fingerprint(root) == before, "inspect changed a file: \(outcome)")
    return outcome
  }

  @Test("a journal: its segments (active, sealed, compressed), records, sequences, checkpoint")
  func journal() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 200, compress: false)
      try StoreFixtures.compressSome(directory)
      let journal = try StoreFixtures.openJournal(directory)
      try journal.dropThrough(20)
      try journal.close()
      let zst = try StoreFixtures.segments(directory, suffix: ".zst")
      let logs = try StoreFixtures.segments(directory, suffix: ".log")

      let table = try Self.inspect([directory], root: scratch)
      #expect(table.status == 0, "\(table)")
      #expect(table.output.contains("records     480 (sequences 21…500)"), "\(table)")
      #expect(table.output.contains("low-water   20"), "\(table)")
      #expect(table.output.contains("lock        not locked"))
      // Names are padded to the longest (a compressed segment's, which records its summary).
      func row(_ path: String, _ state: String) -> Bool {
        table.output.split(separator: "\n").contains { line in
          line.split(separator: " ").prefix(2) == [
            Substring(StorePath.name(of: path)), Substring(state),
          ]
        }
      }
      #expect(row(zst[0], "compressed"), "\(table)")
      #expect(row(logs.last ?? "", "active"), "\(table)")
      #expect(table.output.contains("  sealed "), "\(table)")
      #expect(table.output.contains("journal.checkpoint  checkpoint"), "\(table)")

      let json = try Self.inspect(["--json", directory], root: scratch).document()
      #expect(json["kind"] as? String == "journal")
      let details = try #require(json["journal"] as? [String: Any])
      #expect(details["records"] as? Int == 480)
      #expect(details["firstSequence"] as? Int == 21)
      #expect(details["lastSequence"] as? Int == 500)
      #expect(details["lowWaterMark"] as? Int == 20)
      let segments = try #require(details["segments"] as? [[String: Any]])
      #expect(segments.count == zst.count + logs.count)
      #expect(segments.reduce(0) { $0 + ($1["records"] as? Int ?? 0) } == 480)
      #expect(
        Set(segments.compactMap { $0["state"] as? String }) == ["sealed", "compressed", "active"])
      #expect(segments.filter { $0["compressed"] as? Bool == true }.count == zst.count)
      #expect(
        segments.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 || $0["state"] as? String == "active" }
      )
      #expect((json["lock"] as? [String: Any])?["state"] as? String == "free")
    }
  }

  @Test("a torn tail, a stale temporary and a quarantined file: what the next open would do")
  func recoveryToCome() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 50)
      let active = try StoreFixtures.activeSegment(directory)
      let size = try StoreFixtures.bytesOf(active).count
      try StoreFixtures.append(active, [7, 7, 7])
      try Data("half".utf8).write(to: URL(fileURLWithPath: directory + "/journal.checkpoint.tmp"))
      try Data("old damage".utf8).write(
        to: URL(fileURLWithPath: directory + "/journal-0000000000000001.log.corrupt-40"))
      let outcome = try Self.inspect([directory], root: scratch)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("the library's next open would:"), "\(outcome)")
      #expect(outcome.output.contains("truncate \(active) to \(size) bytes"), "\(outcome)")
      #expect(outcome.output.contains("remove \(directory)/journal.checkpoint.tmp"), "\(outcome)")
      #expect(outcome.output.contains("torn tail: 3 bytes after offset \(size)"), "\(outcome)")
      #expect(outcome.output.contains("journal-0000000000000001.log.corrupt-40: quarantined"))
      #expect(outcome.output.contains("journal.checkpoint.tmp: a stale temporary"))
    }
  }

  @Test("an outbox: pending entries and batches, parked entries with their last error")
  func outbox() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/o"
      try await StoreFixtures.outbox(directory)
      let outcome = try Self.inspect([directory], root: scratch)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("  outbox"), "\(outcome)")
      #expect(
        outcome.output.contains("3 pending (0 batches, 18 B), 1 parked, 0 unreadable"), "\(outcome)"
      )
      for key in ["key-3", "key-4", "key-5"] {
        #expect(outcome.output.contains("\n  \(key)    queued"), "\(key): \(outcome)")
      }
      #expect(outcome.output.contains("  key-2          1  "), "\(outcome)")
      #expect(outcome.output.contains("HTTP 400"), "\(outcome)")

      let json = try Self.inspect(["--json", directory], root: scratch).document()
      #expect(json["kind"] as? String == "outbox")
      let details = try #require(json["outbox"] as? [String: Any])
      let pending = try #require(details["pending"] as? [[String: Any]])
      #expect(pending.compactMap { $0["key"] as? String } == ["key-3", "key-4", "key-5"])
      let parked = try #require(details["parked"] as? [[String: Any]])
      #expect(parked.count == 1)
      #expect(parked.first?["key"] as? String == "key-2")
      #expect(parked.first?["lastError"] as? String == "HTTP 400")
      #expect(parked.first?["state"] as? String == "needsAttention")
      #expect((parked.first?["created"] as? String)?.count == "2026-01-01T00:00:00.000+00:00".count)
    }
  }

  @Test("an outbox's persisted batch and an entry this build cannot read")
  func outboxBatchAndUnreadable() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/o"
      var options = OutboxOptions()
      options.retryPolicy = .noRetry
      let outbox = try Outbox<String>(
        directory: directory, fileSystem: PosixFileSystem(), codec: .utf8, options: options,
        journalOptions: StoreFixtures.journalOptions())
      for index in 1...4 { try await outbox.enqueue("item \(index)", key: "key-\(index)") }
      // A drain that forms a batch of three, then stops on a transient failure: the batch
      // stays persisted with its key.
      _ = try await outbox.deliverPending(batch: OutboxBatchLimits(maxEntries: 3)) { _ in .timeout }
      try await outbox.close()
      // A record of a type this build does not know, as a newer build could have written
      // (0x0B is the note of an error now).
      let journal = try StoreFixtures.openJournal(directory)
      _ = try journal.append([0x3F, 0x01, 0, 0], durable: true)
      try journal.close()

      let outcome = try Self.inspect(["--json", directory], root: scratch)
      let details = try #require(try outcome.document()["outbox"] as? [String: Any])
      let batches = try #require(details["batches"] as? [[String: Any]])
      #expect(batches.count == 1, "\(outcome)")
      #expect(batches.first?["entries"] as? Int == 3)
      let unreadable = try #require(details["unreadable"] as? [[String: Any]])
      #expect(unreadable.count == 1, "\(outcome)")
      #expect((unreadable.first?["reason"] as? String)?.contains("unknown record type 63") == true)
      let table = try Self.inspect([directory], root: scratch)
      #expect(table.output.contains("(1 batch, "), "\(table)")
      #expect(table.output.contains("1 unreadable"), "\(table)")
      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 0, "kept and counted by the library, not refused: \(verify)")
      #expect(verify.output.contains("warning  o: an entry this build cannot read"), "\(verify)")
    }
  }

  @Test("a settings file: each generation, what a read returns, a damaged generation flagged")
  func atomicFile() throws {
    try StoicProcess.withScratch { scratch in
      let path = scratch + "/settings.json"
      try StoreFixtures.atomicFile(path)
      let good = try Self.inspect([path], root: scratch)
      #expect(good.status == 0)
      #expect(good.output.contains("a read      returns the current generation"), "\(good)")
      #expect(good.output.contains("current     settings.json"), "\(good)")
      #expect(good.output.contains("previous    settings.json.previous"), "\(good)")
      try StoreFixtures.flipBit(path, at: 24)
      let damaged = try Self.inspect([path], root: scratch)
      #expect(damaged.output.contains("returns the previous generation"), "\(damaged)")
      #expect(damaged.output.contains("unusable: checksum mismatch"), "\(damaged)")
      let json = try Self.inspect(["--json", path], root: scratch).document()
      let file = try #require(json["atomicFile"] as? [String: Any])
      #expect(file["readReturns"] as? String == "previous")
      let generations = try #require(file["generations"] as? [[String: Any]])
      #expect(generations.map { $0["generation"] as? String } == ["current", "previous"])
      #expect(generations.first?["problem"] as? String != nil)
      #expect(generations.last?["payloadBytes"] as? Int == 12)
    }
  }

  @Test("files the group or others can read are flagged; private ones are not")
  func permissions() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 20)
      // The library makes its files private, whatever the umask.
      let made = try Self.inspect([directory], root: scratch)
      #expect(!made.output.contains("readable by"), "\(made)")
      #expect(made.output.contains("rw-------"), "\(made)")
      chmod(directory, 0o755)
      for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
        chmod(directory + "/" + name, 0o644)
      }
      let open = try Self.inspect([directory], root: scratch)
      #expect(open.output.contains("the directory is readable by others (drwxr-xr-x)"), "\(open)")
      #expect(open.output.contains("readable by others (rw-r--r--)"), "\(open)")
      // Write access is named as such, the worse of the two.
      chmod(directory, 0o777)
      chmod(directory + "/journal.lock", 0o622)
      let writable = try Self.inspect([directory], root: scratch)
      #expect(
        writable.output.contains("the directory is readable and writable by others (drwxrwxrwx)"),
        "\(writable)")
      #expect(
        writable.output.contains("readable and writable by others (rw--w--w-, rw-r--r--)"),
        "\(writable)")
      #expect(writable.output.contains("can replace, forge or remove"), "\(writable)")
      chmod(directory, 0o700)
      for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
        chmod(directory + "/" + name, 0o600)
      }
      chmod(directory + "/journal.lock", 0o640)
      let group = try Self.inspect(["--json", directory], root: scratch)
      let findings = try #require(try group.document()["findings"] as? [[String: Any]])
      #expect(
        findings.contains {
          $0["kind"] as? String == "permissions"
            && ($0["message"] as? String)?.contains("the group") == true
        }, "\(group)")
    }
  }

  @Test("every file and directory of a spool is checked: metrics, forwarding, summaries")
  func spoolPermissionsEverywhere() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      _ = try QueryCommandTests.makeSpool(root, seed: 4, count: 10)
      let files = [
        "metrics/live-0.map", "forwarding/journal-0000000000000001.log", "summaries/x.summary",
      ]
      for directory in ["metrics/samples", "forwarding", "summaries"] {
        try FileManager.default.createDirectory(
          atPath: root + "/" + directory, withIntermediateDirectories: true)
      }
      for file in files {
        _ = FileManager.default.createFile(atPath: root + "/" + file, contents: nil)
      }
      let all = try FileManager.default.subpathsOfDirectory(atPath: root)
      func chmodAll(directories: mode_t, files: mode_t) {
        chmod(root, directories)
        for path in all {
          var isDirectory: ObjCBool = false
          _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
          chmod(root + "/" + path, isDirectory.boolValue ? directories : files)
        }
      }
      chmodAll(directories: 0o700, files: 0o600)
      let closed = try Self.inspect(["--json", root], root: scratch)
      let none = try #require(try closed.document()["findings"] as? [[String: Any]])
      #expect(!none.contains { $0["kind"] as? String == "permissions" }, "\(closed)")
      // One at a time: each is named.
      for path in files + ["metrics", "forwarding", "summaries"] {
        chmodAll(directories: 0o700, files: 0o600)
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
        chmod(root + "/" + path, isDirectory.boolValue ? 0o755 : 0o644)
        let open = try Self.inspect(["--json", root], root: scratch)
        let findings = try #require(try open.document()["findings"] as? [[String: Any]])
        #expect(
          findings.contains {
            $0["kind"] as? String == "permissions" && $0["file"] as? String == root + "/" + path
          }, "\(path): \(open)")
      }
    }
  }

  @Test("times: local time by default (the zone's offset), UTC with --utc")
  func times() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory, records: 5)
      // A POSIX zone description: 5 h 30 min east of UTC, no tz database needed.
      let local = try Self.inspect([directory], root: scratch, environment: ["TZ": "STOIC-05:30"])
      #expect(local.output.contains("+05:30"), "\(local)")
      #expect(!local.output.contains("Z\n"))
      let utc = try Self.inspect(
        ["--utc", directory], root: scratch, environment: ["TZ": "STOIC-05:30"])
      #expect(!utc.output.contains("+05:30"), "\(utc)")
      #expect(utc.output.contains("Z\n"), "\(utc)")
    }
  }
}
