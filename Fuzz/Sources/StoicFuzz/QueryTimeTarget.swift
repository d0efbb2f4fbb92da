import StoicTelemetry

@testable import StoicCLI

/// The query's time parser (`LogQueryTime.parse`, what `--since` and `--until` take).
///
/// The input is the text of a time, parsed against four clocks (the earliest and latest times
/// there are, 1970 and 2026). What must hold: no trap; a time ago is at or before its clock; an
/// absolute time accepted, written again as RFC 3339 UTC with nanoseconds, parses to the same
/// nanoseconds; a date alone is a midnight; a refusal is "not a time" or "out of range".
enum QueryTimeTarget {
  static let clocks: [Int64] = [Int64.min, Int64.max, 0, 1_796_119_200_000_000_000]

  static let target = FuzzTarget(
    name: "query-time",
    summary: "query times (--since, --until): no trap, written again parses the same",
    maxLength: 64,
    run: { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      var absolute: Int64?
      for now in clocks {
        let parsed: Int64
        do throws(LogQueryError) {
          parsed = try LogQueryTime.parse(text, now: now)
        } catch {
          switch error {
          case .malformedTime(let refused), .timeOutOfRange(let refused):
            FuzzCheck.require(refused == text, "a refusal names another text")
          default:
            FuzzCheck.fail("a time is refused with \(error)")
          }
          continue
        }
        let relative = bytes.last.map { "smhdw".utf8.contains($0) } ?? false
        if relative {
          FuzzCheck.require(parsed <= now, "a time ago is after its clock")
          continue
        }
        if let first = absolute {
          FuzzCheck.require(first == parsed, "an absolute time moves with the clock")
        }
        absolute = parsed
        let written = LogRecordText.time(parsed, utc: true)
        let again = try? LogQueryTime.parse(written, now: now)
        FuzzCheck.require(again == parsed, "\(written), written again, parses to another time")
        if bytes.count == 10 {
          FuzzCheck.require(
            parsed % (86_400 * 1_000_000_000) == 0, "a date alone is not a midnight")
        }
      }
    },
    seeds: {
      [
        "2026-12-01T10:00:00Z", "2026-12-01T11:00:00.123456789+01:00", "2026-12-01",
        "2262-04-11T23:47:16.854775807Z", "1677-09-21T00:12:43.145224192Z", "2262-04-12",
        "1677-09-21", "9999-12-31", "0001-01-01", "99999999d", "90s", "9223372036s",
        "2024-02-29 00:00:00.5z", "1969-12-31T23:59:59.999999999-23:59",
      ].map { Array($0.utf8) }
    })
}
