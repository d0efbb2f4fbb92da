#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times as RFC 3339 text, in the machine's local time (the default) or in UTC (`--utc`).
public enum TimeFormat {
  /// `2026-12-03T14:05:06+01:00` (local) or `2026-12-03T13:05:06Z` (UTC).
  ///
  /// - Parameters:
  ///   - seconds: Seconds since the Unix epoch.
  ///   - nanoseconds: The fraction of the second, 0 ..< 1 000 000 000.
  ///   - digits: How many digits of the fraction to show (0 to 9).
  ///   - utc: UTC rather than local time.
  public static func rfc3339(seconds: Int64, nanoseconds: Int64 = 0, digits: Int = 0, utc: Bool)
    -> String
  {
    var clock = time_t(truncatingIfNeeded: seconds)
    var parts = tm()
    let converted = utc ? gmtime_r(&clock, &parts) : localtime_r(&clock, &parts)
    guard converted != nil else { return "\(seconds)s" }
    var text =
      "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-"
      + "\(pad(Int(parts.tm_mday), 2))T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):"
      + pad(Int(parts.tm_sec), 2)
    let shown = min(max(digits, 0), 9)
    if shown > 0 {
      let fraction = pad(Int(min(max(nanoseconds, 0), 999_999_999)), 9)
      text += "." + fraction.prefix(shown)
    }
    if utc {
      text += "Z"
    } else {
      let offset = Int(parts.tm_gmtoff)
      let sign = offset < 0 ? "-" : "+"
      let minutes = abs(offset) / 60
      text += "\(sign)\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))"
    }
    return text
  }

  /// `milliseconds` since the Unix epoch, with three digits of fraction.
  public static func rfc3339(milliseconds: Int64, utc: Bool) -> String {
    let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    let rest = milliseconds - seconds * 1000
    return rfc3339(seconds: seconds, nanoseconds: rest * 1_000_000, digits: 3, utc: utc)
  }

  /// A span's length as a person reads it: `850ns`, `12.300µs`, `4.250ms`, `1.500s`,
  /// `2m03.456s`, `1h02m03s`; three digits of fraction below a minute.
  public static func duration(nanoseconds: Int64) -> String {
    let value = max(nanoseconds, 0)
    func scaled(_ unit: Int64, _ name: String) -> String {
      "\(value / unit).\(pad(Int((value % unit) / (unit / 1000)), 3))\(name)"
    }
    switch value {
    case ..<1_000: return "\(value)ns"
    case ..<1_000_000: return scaled(1_000, "µs")
    case ..<1_000_000_000: return scaled(1_000_000, "ms")
    case ..<60_000_000_000: return scaled(1_000_000_000, "s")
    case ..<3_600_000_000_000:
      let seconds = value % 60_000_000_000
      return "\(value / 60_000_000_000)m"
        + "\(pad(Int(seconds / 1_000_000_000), 2)).\(pad(Int(seconds % 1_000_000_000 / 1_000_000), 3))s"
    default:
      let minutes = value / 60_000_000_000
      return "\(minutes / 60)h\(pad(Int(minutes % 60), 2))m"
        + "\(pad(Int(value % 60_000_000_000 / 1_000_000_000), 2))s"
    }
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
