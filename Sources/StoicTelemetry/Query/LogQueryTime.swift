import StoicStore

/// Times as a query's `since` and `until` are written: RFC 3339, or a span of time before now.
public enum LogQueryTime {
  /// Nanoseconds since 1970-01-01 00:00:00 UTC for `text`:
  ///
  /// - RFC 3339: `2026-12-01T10:00:00Z`, `2026-12-01T11:00:00.123456789+01:00` (a `t` or a space
  ///   for the `T`, a `z` for the `Z`, up to nine digits of fraction), or a date alone,
  ///   `2026-12-01` (its midnight, UTC).
  /// - A time ago: a whole number and a unit, `s`, `m`, `h`, `d` or `w` (`90s`, `30m`, `2h`,
  ///   `1d`, `1w`): `now` less that span.
  ///
  /// - Parameters:
  ///   - text: The time as written on a command line.
  ///   - now: The time a relative span counts back from, in nanoseconds since 1970.
  /// - Throws: ``LogQueryError/malformedTime(_:)`` for anything else, an impossible date, or a
  ///   time outside the years 1 to 9999 or ±292 years of 1970.
  public static func parse(_ text: String, now: Int64) throws(LogQueryError) -> Int64 {
    let bytes = Array(text.utf8)
    if let relative = relative(bytes, now: now) { return relative }
    guard let absolute = rfc3339(bytes) else { throw .malformedTime(text) }
    return absolute
  }

  /// The wall clock now, in nanoseconds since 1970.
  public static var now: Int64 { WallClock.nanoseconds() }

  private static let units: [UInt8: Int64] = [
    UInt8(ascii: "s"): 1, UInt8(ascii: "m"): 60, UInt8(ascii: "h"): 3600,
    UInt8(ascii: "d"): 86_400, UInt8(ascii: "w"): 604_800,
  ]

  private static func relative(_ bytes: [UInt8], now: Int64) -> Int64? {
    guard bytes.count >= 2, bytes.count <= 19, let unit = bytes.last.flatMap({ units[$0] })
    else { return nil }
    guard let count = number(bytes.dropLast()) else { return nil }
    let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
    guard !overflow else { return nil }
    let (nanoseconds, overflow2) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow2 else { return nil }
    let (result, overflow3) = now.subtractingReportingOverflow(nanoseconds)
    return overflow3 ? nil : result
  }

  /// The decimal digits of `bytes` as a number, or `nil` if any is not a digit or it is empty.
  private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
    guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
    var value: Int64 = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return value
  }

  private static func rfc3339(_ bytes: [UInt8]) -> Int64? {
    func field(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      return number(bytes[start..<(start + count)])
    }
    guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = field(0, 4), let month = field(5, 2), let day = field(8, 2),
      year >= 1, (1...12).contains(month), day >= 1,
      day <= HTTPDate.daysInMonth(Int(month), year: Int(year))
    else { return nil }
    var seconds =
      Int64(HTTPDate.daysFromCivil(year: Int(year), month: Int(month), day: Int(day))) * 86_400
    guard bytes.count > 10 else { return seconds * 1_000_000_000 }
    let separators: Set<UInt8> = [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")]
    guard bytes.count >= 20, separators.contains(bytes[10]), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), let hour = field(11, 2), let minute = field(14, 2),
      let second = field(17, 2), hour < 24, minute < 60, second < 61
    else { return nil }
    seconds += hour * 3600 + minute * 60 + second
    var index = 19
    var fraction: Int64 = 0
    if bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digits = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        guard digits < 9 else { return nil }
        fraction = fraction * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<9 { fraction *= 10 }
    }
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == bytes.count else { return nil }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
        let hours = field(index + 1, 2), let minutes = field(index + 4, 2), hours < 24,
        minutes < 60
      else { return nil }
      let offset = hours * 3600 + minutes * 60
      seconds += bytes[index] == UInt8(ascii: "+") ? -offset : offset
    default:
      return nil
    }
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return nil }
    let (result, overflow2) = scaled.addingReportingOverflow(fraction)
    return overflow2 ? nil : result
  }
}
