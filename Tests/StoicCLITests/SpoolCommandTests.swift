import Foundation
import StoicStore
import StoicTelemetry
import Testing

/// `inspect`, `verify` and `compact` on a telemetry spool's directory: both journals, the
/// drop counts, the identity, the lock holder; verify changes no byte and names damage;
/// compact refuses a spool another process holds.
@Suite struct SpoolCommandTests {
  /// A closed spool at `root` written by the library: 400 records in small segments, some
  /// metrics.
  static func makeSpool(_ root: String) throws {
    var options = TelemetryOptions()
    options.logs.segmentSize = 4 << 10
    options.logs.backgroundMaintenance = false
    let spool = try TelemetrySpool.open(at: root, options: options)
    for index in 0..<400 {
      spool.logs.log(level: index % 10 == 0 ? .error : .info, label: "app", message: "m \(index)")
    }
    spool.metrics.counter(label: "requests").increment(by: 3)
    try spool.close()
  }

  @Test func verifyAndInspectACleanSpool() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      try Self.makeSpool(root)
      let before = try StoreFixtures.fingerprint(root)
      let verify = try StoicProcess.run(["verify", root])
      #expect(verify.status == 0, "\(verify)")
      #expect(verify.output.contains("spool, logs: "), "\(verify)")
      let inspect = try StoicProcess.run(["inspect", "--json", root])
      #expect(inspect.status == 0, "\(inspect)")
      let document = try inspect.document()
      #expect(document["kind"] as? String == "spool")
      let spool = try #require(document["spool"] as? [String: Any])
      #expect((spool["identity"] as? String)?.count == 32)
      #expect((spool["drops"] as? [String: Any])?["total"] as? Int == 0)
      #expect(spool["logTimes"] is [String: Any])
      let logs = try #require(spool["logs"] as? [String: Any])
      let journal = try #require(logs["journal"] as? [String: Any])
      #expect((journal["records"] as? Int ?? 0) >= 400)
      let segments = try #require(journal["segments"] as? [[String: Any]])
      #expect(segments.count > 2)
      #expect(segments.allSatisfy { $0["earliestTime"] is String && $0["latestTime"] is String })
      #expect(spool["metrics"] is [String: Any])
      let text = try StoicProcess.run(["inspect", root])
      #expect(text.output.contains("drops       quota 0"), "\(text)")
      #expect(try StoreFixtures.fingerprint(root) == before, "verify or inspect wrote")
    }
  }

  /// A process that counted and was never flushed (killed, or still running): the samples'
  /// journal holds nothing yet, the live files hold every value, and inspect shows those.
  @Test func inspectShowsTheLiveMetricValues() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      var options = TelemetryOptions()
      options.metrics.flushInterval = nil
      let spool = try TelemetrySpool.open(at: root, options: options)
      spool.metrics.counter(label: "orders", dimensions: [("shop", "north")]).increment(by: 7)
      spool.metrics.gauge(label: "queue.depth").set(2.5)
      spool.metrics.histogram(label: "latency").record(30)
      let inspect = try StoicProcess.run(["inspect", root])
      #expect(inspect.status == 0, "\(inspect)")
      #expect(inspect.output.contains("this boot's live files"), "\(inspect)")
      #expect(inspect.output.contains("orders{shop=north} counter 7"), "\(inspect)")
      #expect(inspect.output.contains("queue.depth gauge 2.5"), "\(inspect)")
      #expect(inspect.output.contains("latency histogram count=1 sum=30.0"), "\(inspect)")
      let json = try StoicProcess.run(["inspect", "--json", root]).document()
      let spoolJSON = try #require(json["spool"] as? [String: Any])
      let live = try #require(spoolJSON["liveMetrics"] as? [String: Any])
      let series = try #require(live["series"] as? [[String: Any]])
      #expect(
        series.contains {
          $0["name"] as? String == "orders" && $0["value"] as? String == "7"
            && ($0["dimensions"] as? [String: String]) == ["shop": "north"]
        }, "\(series)")
      try spool.close()
    }
  }

  @Test func verifyNamesDamageInsideTheLogJournal() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      try Self.makeSpool(root)
      let sealed = try #require(try StoreFixtures.segments(root + "/logs", suffix: ".zst").first)
      try StoreFixtures.flipBit(sealed, at: 40)
      let before = try StoreFixtures.fingerprint(root)
      let verify = try StoicProcess.run(["verify", root])
      #expect(verify.status == 1, "\(verify)")
      #expect(verify.output.contains("DAMAGE"), "\(verify)")
      #expect(verify.output.contains(StorePath.name(of: sealed)), "\(verify)")
      let compact = try StoicProcess.run(["compact", root])
      #expect(compact.status == 1, "\(compact)")
      #expect(try StoreFixtures.fingerprint(root) == before, "verify or compact wrote")
    }
  }

  @Test func aSpoolHeldByAWriterIsReadNotCompacted() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      // About a thousand records a second: the writer must outlive every command below, which
      // under a sanitizer on a loaded machine can take minutes, without reaching the spool's
      // byte limit (where it stops).
      let writer = try TailFollowTests.startWriter(root, pause: 1000) {
        !((try? StoreFixtures.segments(root + "/logs", suffix: ".zst").isEmpty) ?? true)
      }
      defer { TailFollowTests.stop(writer) }
      let inspect = try StoicProcess.run(["inspect", "--json", root])
      #expect(inspect.status == 0, "\(inspect)")
      let lock = try #require(try inspect.document()["lock"] as? [String: Any])
      #expect(lock["pid"] as? Int == Int(writer.processIdentifier), "\(inspect)")
      let compact = try StoicProcess.run(["compact", root])
      #expect(compact.status == 69, "\(compact)")
      #expect(compact.error.contains("process \(writer.processIdentifier)"), "\(compact)")
      let query = try StoicProcess.run(["query", root, "--label", "child", "-n", "5"])
      #expect(query.status == 0, "\(query)")
      #expect(query.output.split(separator: "\n").count == 5, "\(query)")
      #expect(writer.isRunning, "the writer stopped: status \(writer.terminationStatus)")
    }
  }

  @Test func compactWritesSummariesThatQueriesUse() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      try Self.makeSpool(root)
      let compact = try StoicProcess.run(["compact", root])
      #expect(compact.status == 0, "\(compact)")
      #expect(compact.output.contains("log segment summaries written"), "\(compact)")
      let summaries = SegmentSummaryStore(directory: root + "/summaries").summarised()
      #expect(summaries.count > 2)
      let query = try StoicProcess.run(["query", root, "--level", "critical", "--stats"])
      #expect(query.status == 0, "\(query)")
      #expect(query.output.isEmpty)
      #expect(query.error.contains("\(summaries.count) skipped"), "\(query)")
    }
  }
}
