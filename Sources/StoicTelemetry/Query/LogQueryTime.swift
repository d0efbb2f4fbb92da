import StoicStore

/// Times as a query's `since` and `until` are written: RFC 3339, or a span of time before now.
public enum LogQueryTime {
  /// The earliest time there is: 1677-09-21T00:12:43.145224192Z, `Int64.min` nanoseconds.
  public static let earliest = Int64.min
  /// The latest time there is: 2262-04-11T23:47:16.854775807Z, `Int64.max` nanoseconds.
  public static let latest = Int64.max

  /// Nanoseconds since 1970-01-01 00:00:00 UTC for `text`:
  ///
  /// - RFC 3339: `2026-12-01T10:00:00Z`, `2026-12-01T11:00:00.123456789+01:00` (a `t` or a space
  ///   for the `T`, a `z` for the `Z`, up to nine digits of fraction), or a date alone,
  ///   `2026-12-01` (its midnight, UTC).
  /// - A time ago: a whole number and a unit, `s`, `m`, `h`, `d` or `w` (`90s`, `30m`, `2h`,
  ///   `1d`, `1w`): `now` less that span.
  ///
  /// Every time from ``earliest`` to ``latest`` (the nanoseconds an `Int64` holds) is accepted:
  /// dates alone from 1677-09-22 to 2262-04-11.
  ///
  /// - Parameters:
  ///   - text: The time as written on a command line.
  ///   - now: The time a relative span counts back from, in nanoseconds since 1970.
  /// - Throws: ``LogQueryError/malformedTime(_:)`` for anything else or an impossible date
  ///   (a 30 February); ``LogQueryError/timeOutOfRange(_:)`` for a time written right that
  ///   lies before ``earliest`` or after ``latest``.
  public static func parse(_ text: String, now: Int64) throws(LogQueryError) -> Int64 {
    let bytes = Array(text.utf8)
    let parsed = relative(bytes, now: now) ?? rfc3339(bytes)
    switch parsed {
    case .time(let nanoseconds): return nanoseconds
    case .outOfRange: throw .timeOutOfRange(text)
    case .malformed: throw .malformedTime(text)
    }
  }

  /// The wall clock now, in nanoseconds since 1970.
  public static var now: Int64 { WallClock.nanoseconds() }

  /// What a text is: a time, one written right that no `Int64` of nanoseconds holds, or none.
  private enum Parsed {
    case time(Int64)
    case outOfRange
    case malformed
  }

  private static let units: [UInt8: Int64] = [
    UInt8(ascii: "s"): 1, UInt8(ascii: "m"): 60, UInt8(ascii: "h"): 3600,
    UInt8(ascii: "d"): 86_400, UInt8(ascii: "w"): 604_800,
  ]

  private static let nanosecondsPerSecond: Int64 = 1_000_000_000

  /// A time ago, or `nil` if `bytes` is not digits and a unit.
  private static func relative(_ bytes: [UInt8], now: Int64) -> Parsed? {
    guard bytes.count >= 2, let unit = bytes.last.flatMap({ units[$0] }),
      bytes.dropLast().allSatisfy(isDigit)
    else { return nil }
    guard let count = number(bytes.dropLast()) else { return .outOfRange }
    let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
    guard !overflow else { return .outOfRange }
    let (nanoseconds, overflow2) = seconds.multipliedReportingOverflow(by: nanosecondsPerSecond)
    guard !overflow2 else { return .outOfRange }
    let (result, overflow3) = now.subtractingReportingOverflow(nanoseconds)
    return overflow3 ? .outOfRange : .time(result)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// The decimal digits of `bytes` as a number, or `nil` if any is not a digit, it is empty, or
  /// it does not fit an `Int64`.
  private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
    guard !bytes.isEmpty else { return nil }
    var value: Int64 = 0
    for byte in bytes {
      guard isDigit(byte) else { return nil }
      let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = tens.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else { return nil }
      value = sum
    }
    return value
  }

  private static func rfc3339(_ bytes: [UInt8]) -> Parsed {
    func field(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      return number(bytes[start..<(start + count)])
    }
    // Every field has at most four digits, so the seconds below stay far inside an Int64
    // (years 0 to 9999: about ±3.2e11 s); only their nanoseconds can overflow.
    guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = field(0, 4), let month = field(5, 2), let day = field(8, 2),
      (1...12).contains(month), day >= 1,
      day <= HTTPDate.daysInMonth(Int(month), year: Int(year))
    else { return .malformed }
    var seconds =
      Int64(HTTPDate.daysFromCivil(year: Int(year), month: Int(month), day: Int(day))) * 86_400
    guard bytes.count > 10 else { return nanoseconds(seconds, fraction: 0) }
    let separators: Set<UInt8> = [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")]
    guard bytes.count >= 20, separators.contains(bytes[10]), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), let hour = field(11, 2), let minute = field(14, 2),
      let second = field(17, 2), hour < 24, minute < 60, second < 61
    else { return .malformed }
    seconds += hour * 3600 + minute * 60 + second
    var index = 19
    var fraction: Int64 = 0
    if bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digits = 0
      while index < bytes.count, isDigit(bytes[index]) {
        guard digits < 9 else { return .malformed }
        fraction = fraction * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
        digits += 1
        index += 1
      }
      guard digits > 0 else { return .malformed }
      for _ in digits..<9 { fraction *= 10 }
    }
    guard index < bytes.count else { return .malformed }
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == bytes.count else { return .malformed }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
        let hours = field(index + 1, 2), let minutes = field(index + 4, 2), hours < 24,
        minutes < 60
      else { return .malformed }
      let offset = hours * 3600 + minutes * 60
      seconds += bytes[index] == UInt8(ascii: "+") ? -offset : offset
    default:
      return .malformed
    }
    return nanoseconds(seconds, fraction: fraction)
  }

  /// `seconds` and `fraction` (0 ..< 1e9) nanoseconds as nanoseconds, if an `Int64` holds them.
  /// A negative time with a fraction is counted from the next second down, so the earliest
  /// time (-9223372037 s and 145224192 ns) does not overflow on the way.
  private static func nanoseconds(_ seconds: Int64, fraction: Int64) -> Parsed {
    let whole = seconds < 0 && fraction > 0 ? seconds + 1 : seconds
    let rest = seconds < 0 && fraction > 0 ? fraction - nanosecondsPerSecond : fraction
    let (scaled, overflow) = whole.multipliedReportingOverflow(by: nanosecondsPerSecond)
    guard !overflow else { return .outOfRange }
    let (result, overflow2) = scaled.addingReportingOverflow(rest)
    return overflow2 ? .outOfRange : .time(result)
  }
}
