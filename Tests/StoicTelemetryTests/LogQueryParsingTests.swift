import Testing

@testable import StoicTelemetry

/// Query filters written as text, and the segment summary's format.
@Suite struct LogQueryParsingTests {
  static let second: Int64 = 1_000_000_000

  @Test func rfc3339Times() throws {
    #expect(try LogQueryTime.parse("1970-01-01T00:00:00Z", now: 0) == 0)
    #expect(try LogQueryTime.parse("2026-12-01T10:00:00Z", now: 0) == 1_796_119_200 * Self.second)
    #expect(
      try LogQueryTime.parse("2026-12-01T11:00:00.5+01:00", now: 0)
        == 1_796_119_200 * Self.second + 500_000_000)
    #expect(
      try LogQueryTime.parse("2026-12-01 09:30:00.000000001-00:30", now: 0)
        == 1_796_119_200 * Self.second + 1)
    #expect(try LogQueryTime.parse("2026-12-01", now: 0) == 1_796_083_200 * Self.second)
    #expect(try LogQueryTime.parse("2024-02-29T00:00:00z", now: 0) == 1_709_164_800 * Self.second)
  }

  @Test func relativeTimes() throws {
    let now: Int64 = 1_000_000 * Self.second
    #expect(try LogQueryTime.parse("90s", now: now) == now - 90 * Self.second)
    #expect(try LogQueryTime.parse("30m", now: now) == now - 1800 * Self.second)
    #expect(try LogQueryTime.parse("2h", now: now) == now - 7200 * Self.second)
    #expect(try LogQueryTime.parse("1d", now: now) == now - 86_400 * Self.second)
    #expect(try LogQueryTime.parse("1w", now: now) == now - 604_800 * Self.second)
  }

  @Test(arguments: [
    "", "2h30m", "h", "-2h", "2x", "2026-13-01", "2025-02-29", "2026-12-01T25:00:00Z",
    "2026-12-01T10:00:00", "2026-12-01T10:00:00+1", "2026-12-01T10:00:00.Z",
    "2026-12-01T10:00:00.1234567891Z", "yesterday", "1d2", "d1",
  ])
  func malformedTimes(_ text: String) {
    #expect(throws: LogQueryError.malformedTime(text)) {
      try LogQueryTime.parse(text, now: 0)
    }
  }

  @Test func metadataConditions() throws {
    let metadata: LogMetadata = [
      "http": .dictionary(["status": .stringConvertible("500"), "a.b": .string("x")]),
      "request.id": .string("r1"),
      "tags": .array([.string("blue"), .dictionary([:])]),
    ]
    func holds(_ text: String) throws -> Bool {
      try LogMetadataCondition(parsing: text).matches(metadata)
    }
    #expect(try holds("http.status=500"))
    #expect(try !holds("http.status=200"))
    #expect(try holds("request.id=r1"))
    #expect(try holds("http.a.b=x"))
    #expect(try holds("tags=blue"))
    #expect(try !holds("http=500"))
    #expect(try !holds("nothing=1"))
    #expect(try LogMetadataCondition(parsing: "k=a=b").value == "a=b")
    #expect(try LogMetadataCondition(parsing: "k=").value == "")
    #expect(throws: LogQueryError.malformedCondition("=x")) {
      try LogMetadataCondition(parsing: "=x")
    }
    #expect(throws: LogQueryError.malformedCondition("novalue")) {
      try LogMetadataCondition(parsing: "novalue")
    }
  }

  @Test func summaryFormatRoundTripsAndRefusesEveryDamagedByte() {
    var summary = SegmentSummary(first: 0x10, last: 0x2F)
    summary.records = 32
    summary.earliest = -5
    summary.latest = 1_700_000_000_000_000_000
    summary.levels = 0b0010_0101
    summary.labels = ["api", "db", "é"]
    let bytes = SegmentSummaryFormat.encode(summary)
    #expect(SegmentSummaryFormat.decode(bytes) == summary)
    var unknown = summary
    unknown.labels = nil
    #expect(SegmentSummaryFormat.decode(SegmentSummaryFormat.encode(unknown)) == unknown)
    for offset in bytes.indices {
      for bit in 0..<8 {
        var damaged = bytes
        damaged[offset] ^= 1 << bit
        #expect(SegmentSummaryFormat.decode(damaged) == nil, "bit \(bit) of byte \(offset)")
      }
    }
    for length in 0..<bytes.count {
      #expect(SegmentSummaryFormat.decode(Array(bytes.prefix(length))) == nil)
    }
    #expect(SegmentSummaryFormat.decode(bytes + [0]) == nil)
  }

  @Test func summaryRulesOut() {
    var summary = SegmentSummary(first: 1, last: 10)
    summary.records = 10
    summary.earliest = 100
    summary.latest = 200
    summary.levels = 1 << LogLevel.info.rawValue | 1 << LogLevel.warning.rawValue
    summary.labels = ["api"]
    #expect(LogQuery(minimumLevel: .warning).mayMatch(summary))
    #expect(!LogQuery(minimumLevel: .error).mayMatch(summary))
    #expect(LogQuery(since: 200).mayMatch(summary))
    #expect(!LogQuery(since: 201).mayMatch(summary))
    #expect(LogQuery(until: 101).mayMatch(summary))
    #expect(!LogQuery(until: 100).mayMatch(summary))
    #expect(!LogQuery(label: "db").mayMatch(summary))
    summary.labels = nil
    #expect(LogQuery(label: "db").mayMatch(summary))
    summary.records = 0
    #expect(!LogQuery().mayMatch(summary))
  }
}
