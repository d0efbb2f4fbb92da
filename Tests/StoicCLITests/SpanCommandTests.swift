import Foundation
import StoicStore
import StoicTelemetry
import Testing

@testable import StoicCLI

/// `query --signal traces`, `tail --signal traces` and `trace` run as real processes over a
/// spool the library wrote: every span once, the filters as documented, a trace as a tree with
/// its unfinished and open spans marked, the text escaped; `inspect` and `verify` know the span
/// journal.
@Suite struct SpanCommandTests {
  static let shop = TraceID(high: 0x4bf9_2f35_77b3_4da6, low: 0xa3ce_929d_0e0e_4736)
  static let other = TraceID(high: 0x4bf9_0000_0000_0001, low: 1)
  static let ticks = TraceID(high: 0x7777_0000_0000_0000, low: 7)
  static let base: Int64 = 1_790_000_000_000_000_000
  static let millisecond: Int64 = 1_000_000

  static func start(
    _ trace: TraceID, _ span: UInt64, parent: UInt64 = 0, _ name: String, at offset: Int64,
    kind: SpanStart.Kind = .internal
  ) -> SpanStart {
    SpanStart(
      traceID: trace, spanID: SpanID(span), parentSpanID: SpanID(parent), kind: kind, name: name,
      startTimeNanoseconds: base + offset * millisecond)
  }

  static func end(
    _ start: SpanStart, after milliseconds: Int64, status: SpanEnd.Status = SpanEnd.Status(),
    attributes: SpanRecordAttributes = [:]
  ) -> SpanEnd {
    SpanEnd(
      start: start, endTimeNanoseconds: start.startTimeNanoseconds + milliseconds * millisecond,
      attributes: attributes, status: status)
  }

  /// A spool at `root` with spans, left open (its lock held by this process) so that one span
  /// has a start and no end: the shop trace (a server span, a client child, an error child
  /// with a grandchild the first process's close ended as unfinished, a second grandchild
  /// still open), a one-span trace whose name and attribute hold control characters, and 30
  /// ticks of 1 to 30 ms. Returns the open spool; the caller closes it.
  static func makeSpool(_ root: String) throws -> TelemetrySpool {
    var options = TelemetryOptions()
    options.spans = options.logs
    var spool = try TelemetrySpool.open(at: root, options: options)
    var spans = try #require(spool.spans)
    let server = start(shop, 1, "GET /orders", at: 0, kind: .server)
    let query = start(shop, 2, parent: 1, "SELECT orders", at: 10, kind: .client)
    let charge = start(shop, 3, parent: 1, "charge", at: 40)
    let cut = start(shop, 4, parent: 3, "retry", at: 50)
    for span in [server, query, charge, cut] { _ = spans.start(span) }
    _ = spans.end(end(query, after: 20))
    _ = spans.end(
      end(charge, after: 50, status: SpanEnd.Status(code: .error, message: "card declined")))
    _ = spans.end(
      end(
        server, after: 100, status: SpanEnd.Status(code: .ok),
        attributes: ["http.route": .string("/orders")]))
    let odd = start(other, 9, "evil\u{1B}[31mname", at: 200)
    _ = spans.start(odd)
    _ = spans.end(end(odd, after: 1, attributes: ["note": .string("two\nlines")]))
    for tick in 1...30 {
      let span = start(ticks, UInt64(100 + tick), "tick", at: 300 + Int64(tick) * 50)
      _ = spans.start(span)
      _ = spans.end(end(span, after: Int64(tick)))
    }
    try spool.close()
    spool = try TelemetrySpool.open(at: root, options: options)
    spans = try #require(spool.spans)
    _ = spans.start(start(shop, 5, parent: 3, "refund", at: 2_000))
    return spool
  }

  /// The names of the spans a `--json` run printed, in order.
  static func names(_ outcome: StoicProcess.Outcome) throws -> [String] {
    try objects(outcome).map { try #require($0["name"] as? String) }
  }

  static func objects(_ outcome: StoicProcess.Outcome) throws -> [[String: Any]] {
    try outcome.output.split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
  }

  @Test func queryShowsEverySpanOnceEndedThenOpen() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      defer { try? spool.close() }
      let all = try StoicProcess.run(["query", "--signal", "traces", "--json", root])
      #expect(all.status == 0, "\(all)")
      let objects = try Self.objects(all)
      #expect(objects.count == 36, "\(all)")
      let names = try Self.names(all)
      #expect(
        Array(names.prefix(5))
          == ["SELECT orders", "charge", "GET /orders", "evil\u{1B}[31mname", "tick"])
      #expect(names.suffix(2) == ["retry", "refund"])
      let retry = try #require(objects.first { $0["name"] as? String == "retry" })
      #expect(retry["unfinished"] as? Bool == true)
      #expect(retry["status"] as? String == "error")
      #expect(retry["parent_span_id"] as? String == "0000000000000003")
      let refund = try #require(objects.last)
      #expect(refund["open"] as? Bool == true)
      #expect(refund["end_time"] is NSNull && refund["duration_ns"] is NSNull)
      let server = try #require(objects.first { $0["name"] as? String == "GET /orders" })
      #expect(server["trace_id"] as? String == Self.shop.description)
      #expect(server["kind"] as? String == "server")
      #expect(server["duration_ns"] as? Int == 100_000_000)
      #expect((server["attributes"] as? [String: Any])?["http.route"] as? String == "/orders")
      #expect(server["parent_span_id"] is NSNull)
      // The spool's spans/ directory names the signal by itself.
      let direct = try StoicProcess.run(["query", "--json", root + "/spans"])
      #expect(try Self.names(direct) == names, "\(direct)")
    }
  }

  @Test func queryFilters() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      defer { try? spool.close() }
      func names(_ arguments: [String]) throws -> [String] {
        let outcome = try StoicProcess.run(
          ["query", "--signal", "traces", "--json"] + arguments + [root])
        #expect(outcome.status == 0, "\(outcome)")
        return try Self.names(outcome)
      }
      #expect(
        try names(["--trace-id", Self.shop.description])
          == ["SELECT orders", "charge", "GET /orders", "retry", "refund"])
      #expect(try names(["--trace-id", "4BF9"]).count == 6)
      #expect(try names(["--name", "charge"]) == ["charge"])
      #expect(try names(["--status", "error"]) == ["charge", "retry"])
      #expect(try names(["--status", "unfinished"]) == ["retry"])
      #expect(try names(["--status", "open"]) == ["refund"])
      #expect(try names(["--status", "ok"]) == ["GET /orders"])
      #expect(try names(["--status", "unset"]).count == 32)
      // Ticks take 1 to 30 ms; the shop's spans 20, 50 and 100 ms; retry ended unfinished.
      let long = try StoicProcess.run(
        ["query", "--signal", "traces", "--json", "--min-duration", "25ms", root])
      let durations = try Self.objects(long).map { try #require($0["duration_ns"] as? Int) }
      #expect(durations.allSatisfy { $0 >= 25_000_000 }, "\(long)")
      // Six ticks, charge, GET, and retry (ended at the close, long after its start).
      #expect(durations.count == 9, "\(long)")
      #expect(
        try names(["--name", "tick", "--min-duration", "10ms", "--max-duration", "0.012s"]).count
          == 3)
      #expect(try names(["--limit", "2"]) == ["SELECT orders", "charge"])
      let since = LogRecordText.time(Self.base + 1_000 * Self.millisecond, utc: true)
      #expect(try names(["--since", since]) == Array(repeating: "tick", count: 17) + ["refund"])
    }
  }

  @Test func traceIsATree() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      defer { try? spool.close() }
      let text = try StoicProcess.run(["trace", "--utc", root, "4bf92f35"])
      #expect(text.status == 0, "\(text)")
      let lines = text.output.split(separator: "\n").map(String.init)
      #expect(lines.count == 6, "\(text)")
      #expect(lines[0].hasPrefix("trace \(Self.shop): 5 spans (1 open, 1 unfinished), started "))
      #expect(lines[1].hasPrefix("GET /orders  100.000ms  ok  span=0000000000000001 kind=server"))
      #expect(lines[2].hasPrefix("├─ SELECT orders  20.000ms  unset"))
      #expect(lines[3].hasPrefix("└─ charge  50.000ms  error"))
      #expect(lines[3].contains("status.message=card declined"))
      #expect(lines[4].hasPrefix("   ├─ retry  "))
      #expect(lines[4].contains("UNFINISHED"))
      #expect(lines[5].hasPrefix("   └─ refund  open  open"))
      let json = try StoicProcess.run(["trace", "--json", root, Self.shop.description])
      let document = try json.document()
      let spans = try #require(document["spans"] as? [[String: Any]])
      #expect(spans.map { $0["depth"] as? Int } == [0, 1, 1, 2, 2])
      let evil = try StoicProcess.run(["trace", root, Self.other.description])
      #expect(evil.status == 0, "\(evil)")
      #expect(!evil.output.contains("\u{1B}") && evil.output.contains("\\n"), "\(evil)")
      let ambiguous = try StoicProcess.run(["trace", root, "4bf9"])
      #expect(ambiguous.status == 64, "\(ambiguous)")
      #expect(ambiguous.error.contains("2 traces"))
      let missing = try StoicProcess.run(["trace", root, "ffff"])
      #expect(missing.status == 1, "\(missing)")
      #expect(try StoicProcess.run(["trace", root, "xyz"]).status == 64)
    }
  }

  @Test func tailShowsTheSpansThatEndedLast() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      defer { try? spool.close() }
      let tail = try StoicProcess.run(["tail", "--signal", "traces", "--json", "-n", "4", root])
      #expect(tail.status == 0, "\(tail)")
      let objects = try Self.objects(tail)
      // The last ends: ticks 28, 29, 30, then retry, ended as unfinished by the reopen.
      #expect(
        try objects.map { try #require($0["name"] as? String) } == [
          "tick", "tick", "tick", "retry",
        ])
      #expect(
        objects.prefix(3).map { $0["duration_ns"] as? Int } == [28, 29, 30].map { $0 * 1_000_000 })
      let text = try StoicProcess.run(["tail", "--signal", "traces", "-n", "40", root])
      #expect(text.output.split(separator: "\n").count == 35, "\(text)")
    }
  }

  @Test func inspectAndVerifyKnowTheSpanJournal() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      try spool.close()
      let verify = try StoicProcess.run(["verify", root])
      #expect(verify.status == 0, "\(verify)")
      #expect(verify.output.contains("spans: "), "\(verify)")
      #expect(!verify.output.contains("not the store's"), "\(verify)")
      let inspect = try StoicProcess.run(["inspect", "--json", root])
      let document = try inspect.document()
      let spoolDocument = try #require(document["spool"] as? [String: Any])
      let spans = try #require(spoolDocument["spans"] as? [String: Any], "\(inspect)")
      let journal = try #require(spans["journal"] as? [String: Any])
      #expect((journal["records"] as? Int ?? 0) >= 70)
      #expect(spoolDocument["spanDropsState"] is String)
      let counts = try #require(spoolDocument["spanCounts"] as? [String: Any], "\(inspect)")
      // The close ended refund as unfinished too.
      #expect(counts["ended"] as? Int == 36 && counts["open"] as? Int == 0, "\(counts)")
      let findings = document["findings"] as? [[String: Any]] ?? []
      #expect(findings.allSatisfy { $0["severity"] as? String != "warning" }, "\(inspect)")
      // spans/ and span-drops are the spool's own files.
      #expect(
        findings.allSatisfy { $0["kind"] as? String != Finding.Kind.unknownFile.rawValue },
        "\(inspect)")
    }
  }

  @Test func usageErrors() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let spool = try Self.makeSpool(root)
      defer { try? spool.close() }
      for arguments in [
        ["--signal", "metrics"], ["--signal", "traces", "--level", "error"],
        ["--name", "x"], ["--signal", "traces", "--status", "fine"],
        ["--signal", "traces", "--min-duration", "5"],
        ["--signal", "traces", "--min-duration", "2s", "--max-duration", "1s"],
        ["--signal", "traces", "--trace-id", "g1"],
      ] {
        let outcome = try StoicProcess.run(["query"] + arguments + [root])
        #expect(outcome.status == 64, "\(arguments): \(outcome)")
      }
      let plain = scratch + "/plain"
      try SpoolCommandTests.makeSpool(plain)
      let none = try StoicProcess.run(["query", "--signal", "traces", plain])
      #expect(none.status == 66, "\(none)")
      #expect(none.error.contains("no spans"), "\(none)")
    }
  }

  @Test("durations parse and print as documented")
  func durations() {
    #expect(DurationArgument.nanoseconds("250ms") == 250_000_000)
    #expect(DurationArgument.nanoseconds("1.5s") == 1_500_000_000)
    #expect(DurationArgument.nanoseconds(".5us") == 500)
    #expect(DurationArgument.nanoseconds("500µs") == 500_000)
    #expect(DurationArgument.nanoseconds("2m") == 120_000_000_000)
    #expect(DurationArgument.nanoseconds("1h") == 3_600_000_000_000)
    #expect(DurationArgument.nanoseconds("7ns") == 7)
    for bad in ["", "5", "ms", "-1s", "1.s", "1..5s", "1e3ms", "99999999999h"] {
      #expect(DurationArgument.nanoseconds(bad) == nil, "\(bad)")
    }
    #expect(TimeFormat.duration(nanoseconds: 850) == "850ns")
    #expect(TimeFormat.duration(nanoseconds: 12_300) == "12.300µs")
    #expect(TimeFormat.duration(nanoseconds: 4_250_000) == "4.250ms")
    #expect(TimeFormat.duration(nanoseconds: 1_500_000_000) == "1.500s")
    #expect(TimeFormat.duration(nanoseconds: 123_456_000_000) == "2m03.456s")
    #expect(TimeFormat.duration(nanoseconds: 3_723_000_000_000) == "1h02m03s")
  }

  @Test("a tree places a cycle of parents and a duplicate once each")
  func treeOfDamagedParents() {
    let a = QueriedSpan.open(Self.start(Self.shop, 1, parent: 2, "a", at: 0))
    let b = QueriedSpan.open(Self.start(Self.shop, 2, parent: 1, "b", at: 1))
    let c = QueriedSpan.open(Self.start(Self.shop, 3, parent: 9, "c", at: 2))
    let tree = TraceTree([a, b, c, c])
    #expect(tree.rows.map(\.span.start.name) == ["c", "a", "b"])
    #expect(tree.rows.map(\.prefix) == ["", "", "└─ "])
    #expect(tree.rows[0].missingParent == SpanID(9))
  }
}
