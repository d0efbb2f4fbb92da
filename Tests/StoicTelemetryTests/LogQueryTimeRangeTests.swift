import Testing

@testable import StoicTelemetry

/// The whole range of times a query accepts: every nanosecond an `Int64` holds counted from
/// 1970, written in full, as a date alone, or as a time ago; a time written right outside it is
/// "out of range", never a trap and never "not a time".
@Suite struct LogQueryTimeRangeTests {
  @Test func fullTimesAtBothEnds() throws {
    #expect(try LogQueryTime.parse("1677-09-21T00:12:43.145224192Z", now: 0) == Int64.min)
    #expect(try LogQueryTime.parse("1677-09-21T00:12:43.145224193Z", now: 0) == Int64.min + 1)
    #expect(try LogQueryTime.parse("2262-04-11T23:47:16.854775807Z", now: 0) == Int64.max)
    #expect(try LogQueryTime.parse("2262-04-11T23:47:16.854775806Z", now: 0) == Int64.max - 1)
    #expect(
      try LogQueryTime.parse("2262-04-12T01:47:16.854775807+02:00", now: 0) == Int64.max)
    #expect(try LogQueryTime.parse("1677-09-20T23:12:43.145224192-01:00", now: 0) == Int64.min)
    #expect(try LogQueryTime.parse("1969-12-31T23:59:59.999999999Z", now: 0) == -1)
  }

  @Test func datesAloneAtBothEnds() throws {
    #expect(try LogQueryTime.parse("1677-09-22", now: 0) == -106_751 * 86_400 * 1_000_000_000)
    #expect(try LogQueryTime.parse("2262-04-11", now: 0) == 106_751 * 86_400 * 1_000_000_000)
  }

  @Test func relativeTimesAtBothEnds() throws {
    #expect(try LogQueryTime.parse("9223372036s", now: 0) == -9_223_372_036_000_000_000)
    #expect(try LogQueryTime.parse("0s", now: Int64.min) == Int64.min)
    #expect(try LogQueryTime.parse("1s", now: Int64.max) == Int64.max - 1_000_000_000)
    #expect(try LogQueryTime.parse("106751d", now: 0) == -106_751 * 86_400 * 1_000_000_000)
  }

  @Test(arguments: [
    "1677-09-21T00:12:43.145224191Z", "2262-04-11T23:47:16.854775808Z",
    "2262-04-11T23:47:17Z", "1677-09-21T00:12:43Z", "2262-04-12T00:47:16.854775807-01:00",
    "1677-09-21", "2262-04-12", "3000-01-01", "9999-12-31", "0001-01-01", "0000-01-01",
    "9999-12-31T23:59:59.999999999-23:59", "0000-01-01T00:00:00+23:59",
    "9223372037s", "106752d", "99999999d", "99999999999999999d", "9223372036854775808s",
    "99999999999999999999999999999w",
  ])
  func outOfRange(_ text: String) {
    #expect(throws: LogQueryError.timeOutOfRange(text)) {
      try LogQueryTime.parse(text, now: 0)
    }
  }

  @Test func aSpanPastTheStartOfTimeIsOutOfRange() {
    #expect(throws: LogQueryError.timeOutOfRange("1s")) {
      try LogQueryTime.parse("1s", now: Int64.min)
    }
  }

  @Test func theMessageSaysOutOfRange() {
    let description = LogQueryError.timeOutOfRange("99999999d").description
    #expect(description.contains("out of range"))
    #expect(!description.contains("not a time"))
  }
}
