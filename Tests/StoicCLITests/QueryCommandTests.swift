import Foundation
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// `stoic query` run as a real process over a spool of many segments (compressed and plain)
/// returns exactly what a brute-force filter over every record returns, with its summaries
/// missing, damaged or in place; bad arguments exit 64, a missing spool 66.
@Suite struct QueryCommandTests {
  static let labels = ["api", "db", "worker"]
  static let start: Int64 = 1_790_000_000_000_000_000

  /// A spool at `root`: `spool.id` and a log journal of `count` records from `seed`, with
  /// controlled times (a second apart, in bursts of one level and label), the first half's
  /// sealed segments compressed. Returns the records.
  static func makeSpool(_ root: String, seed: UInt64, count: Int = 900) throws -> [LogRecord] {
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try Data("00112233445566778899aabbccddeeff\n".utf8).write(
      to: URL(fileURLWithPath: root + "/spool.id"))
    var random = SplitMix64(seed: seed)
    var records: [LogRecord] = []
    var burst = (LogLevel.info, "api")
    for half in 0..<2 {
      let journal = try Journal.open(
        directory: root + "/logs", fileSystem: PosixFileSystem(),
        options: StoreFixtures.journalOptions(compress: half == 0))
      for index in (half * count / 2)..<((half + 1) * count / 2) {
        if index % 30 == 0 {
          burst = (
            LogLevel.allCases[random.below(LogLevel.allCases.count)],
            labels[random.below(labels.count)]
          )
        }
        var record = LogRecord(
          timeNanoseconds: start + Int64(index) * 1_000_000_000 + Int64(random.below(1000)),
          level: random.below(5) == 0 ? .critical : burst.0, label: burst.1,
          message: "order \(random.below(50)) \(random.below(3) == 0 ? "failed" : "ok")",
          metadata: [
            "http": .dictionary(["status": .stringConvertible(["200", "500"][random.below(2)])]),
            "user": .string("u\(random.below(3))"),
          ], source: "Shop", file: "Shop.swift", function: "buy()", line: UInt(index))
        record.sequence = try journal.append(LogRecordFormat.encode(record))
        records.append(record)
      }
      try journal.close()
    }
    return records
  }

  /// A random command line and the query it means.
  static func randomArguments(_ random: inout SplitMix64) -> ([String], LogQuery) {
    var arguments: [String] = []
    var query = LogQuery()
    func time(_ offset: Int) -> (String, Int64) {
      let nanoseconds = start + Int64(offset) * 1_000_000_000
      return ("@\(nanoseconds)", nanoseconds)
    }
    if random.below(2) == 0 {
      let level = LogLevel.allCases[random.below(LogLevel.allCases.count)]
      arguments += ["--level", level.description]
      query.minimumLevel = level
    }
    if random.below(2) == 0 {
      let since = random.below(900)
      arguments += ["--since", rfc3339(start / 1_000_000_000 + Int64(since))]
      query.since = start + Int64(since) * 1_000_000_000
      if random.below(2) == 0 {
        let until = since + 1 + random.below(400)
        arguments += ["--until", rfc3339(start / 1_000_000_000 + Int64(until))]
        query.until = start + Int64(until) * 1_000_000_000
      }
    }
    if random.below(3) == 0 {
      let label = labels[random.below(labels.count)]
      arguments += ["--label", label]
      query.label = label
    }
    if random.below(3) == 0 {
      let value = ["200", "500"][random.below(2)]
      arguments += ["--where", "http.status=\(value)"]
      query.conditions.append(LogMetadataCondition(key: "http.status", value: value))
      if random.below(2) == 0 {
        arguments += ["--where", "user=u1"]
        query.conditions.append(LogMetadataCondition(key: "user", value: "u1"))
      }
    }
    if random.below(3) == 0 {
      arguments += ["--grep", "failed"]
      query.text = "failed"
    }
    if random.below(3) == 0 {
      let limit = random.below(20)
      arguments += ["--limit", String(limit)]
      query.limit = limit
    }
    return (arguments, query)
  }

  /// `seconds` since 1970 as RFC 3339 UTC (the test's own, small formatter).
  static func rfc3339(_ seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  /// The `seq` of each JSON line printed.
  static func sequences(_ output: String) throws -> [UInt64] {
    try output.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require((object?["spool_sequence"] as? NSNumber)?.uint64Value, "\(line)")
    }
  }

  @Test func randomQueriesMatchBruteForce() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let records = try Self.makeSpool(root, seed: 77)
      let summaries = SegmentSummaryStore(directory: root + "/summaries")
      var random = SplitMix64(seed: 3)
      var skipped = 0
      for index in 0..<16 {
        // Damage the summaries as the runs go: delete one, corrupt one.
        let kept = summaries.summarised()
        if index % 4 == 3, let first = kept.first {
          try FileManager.default.removeItem(atPath: summaries.path(first: first))
        }
        if index % 4 == 1, let last = kept.last {
          try StoreFixtures.flipBit(summaries.path(first: last), at: 9)
        }
        let (arguments, query) = Self.randomArguments(&random)
        let outcome = try StoicProcess.run(["query", root, "--json", "--stats"] + arguments)
        #expect(outcome.status == 0, "\(arguments) \(outcome)")
        let expected = Array(
          records.filter(query.matches).map(\.sequence).prefix(query.limit ?? .max))
        #expect(try Self.sequences(outcome.output) == expected, "\(arguments)")
        if let range = outcome.error.range(
          of: #"segments, (\d+) skipped"#, options: .regularExpression)
        {
          skipped += Int(outcome.error[range].split(separator: " ")[1]) ?? 0
        }
      }
      #expect(skipped > 0, "no run skipped a segment")
    }
  }

  /// `warn`, `err` and `crit` (in any case) select what `warning`, `error` and `critical` do.
  @Test func shortLevelNamesMeanTheLongOnes() throws {
    try StoicProcess.withScratch { scratch in
      _ = try Self.makeSpool(scratch + "/spool", seed: 11, count: 200)
      for (short, long) in [("warn", "warning"), ("ERR", "error"), ("Crit", "critical")] {
        let byShort = try StoicProcess.run([
          "query", scratch + "/spool", "--json", "--level", short,
        ])
        let byLong = try StoicProcess.run(["query", scratch + "/spool", "--json", "--level", long])
        #expect(byShort.status == 0, "\(byShort)")
        #expect(byShort.output == byLong.output)
        #expect(!byLong.output.isEmpty || long == "critical")
      }
    }
  }

  @Test func jsonLinesCarryEveryField() throws {
    try StoicProcess.withScratch { scratch in
      let records = try Self.makeSpool(scratch + "/spool", seed: 5, count: 40)
      let outcome = try StoicProcess.run(["query", scratch + "/spool/logs", "--json", "-n", "1"])
      #expect(outcome.status == 0, "\(outcome)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
      let first = try #require(records.first)
      #expect(object["spool_sequence"] as? Int == 1)
      #expect(object["level"] as? String == first.level.description)
      #expect(object["label"] as? String == first.label)
      #expect(object["message"] as? String == first.message)
      #expect(object["source"] as? String == "Shop")
      #expect(object["file"] as? String == "Shop.swift")
      #expect(object["function"] as? String == "buy()")
      #expect(object["line"] as? Int == 0)
      let time = try #require(object["time"] as? String)
      let nanos = first.timeNanoseconds % 1_000_000_000
      #expect(time.hasSuffix(String(format: ".%09dZ", nanos)), "\(time)")
      let metadata = try #require(object["metadata"] as? [String: Any])
      #expect((metadata["http"] as? [String: Any])?["status"] is String)
    }
  }

  @Test(arguments: [
    ["--level", "loud"], ["--since", "yesterday"], ["--until", "2h30m"],
    ["--where", "nokey"], ["--limit", "-1"], ["--since", "1h", "--until", "2h"], ["--bogus"],
  ])
  func badArgumentsExit64(_ arguments: [String]) throws {
    try Self.expectUsageError(arguments, saying: "stoic: ")
  }

  /// `stoic query` on a small spool with `arguments` exits 64, prints nothing, and says
  /// `message` on standard error.
  static func expectUsageError(_ arguments: [String], saying message: String) throws {
    try StoicProcess.withScratch { scratch in
      _ = try makeSpool(scratch + "/spool", seed: 1, count: 10)
      let outcome = try StoicProcess.run(["query", scratch + "/spool"] + arguments)
      #expect(outcome.status == 64, "\(outcome)")
      #expect(outcome.output.isEmpty)
      #expect(outcome.error.hasPrefix("stoic: "), "\(outcome)")
      #expect(outcome.error.contains(message), "\(outcome)")
    }
  }

  /// Times written right but outside 1677-09-21 to 2262-04-11 (a date alone among them, whose
  /// nanoseconds once overflowed unchecked: exit 132) are refused as out of range, exit 64.
  @Test(arguments: [
    ["--since", "2262-04-12"], ["--since", "3000-01-01"], ["--until", "9999-12-31"],
    ["--since", "1677-09-21"], ["--until", "0001-01-01"], ["--since", "99999999d"],
    ["--until", "2262-12-31T23:59:59Z"],
  ])
  func timesOutOfRangeExit64(_ arguments: [String]) throws {
    try Self.expectUsageError(arguments, saying: "is out of range")
  }

  @Test func aMissingOrForeignDirectoryExits66() throws {
    try StoicProcess.withScratch { scratch in
      let missing = try StoicProcess.run(["query", scratch + "/nothing"])
      #expect(missing.status == 66, "\(missing)")
      let foreign = try StoicProcess.run(["tail", scratch])
      #expect(foreign.status == 66, "\(foreign)")
    }
  }

  @Test func tailShowsTheNewestRecords() throws {
    try StoicProcess.withScratch { scratch in
      let records = try Self.makeSpool(scratch + "/spool", seed: 9, count: 120)
      let outcome = try StoicProcess.run(["tail", "-n", "5", "--json", scratch + "/spool"])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(try Self.sequences(outcome.output) == records.suffix(5).map(\.sequence))
      let text = try StoicProcess.run(["tail", scratch + "/spool", "--utc"])
      #expect(text.output.split(separator: "\n").count == 10)
      #expect(text.output.contains(records[119].message))
    }
  }
}
