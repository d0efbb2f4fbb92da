/// Parses an HTTP `Retry-After` header value into a wait, without Foundation.
///
/// Both forms of RFC 9110 §10.2.3 are accepted: delay-seconds (`"120"`) and an HTTP date in the
/// preferred IMF-fixdate form (`"Sun, 06 Nov 1994 08:49:37 GMT"`). A date in the past is a
/// zero wait. Anything else is `nil` (ignored, the retry policy's own backoff applies).
public enum RetryAfter {
  /// The longest wait accepted from a header: a day. Larger values are clamped to it.
  public static let maximumSeconds: Int64 = 86_400

  /// The wait `value` asks for, measured from `nowMilliseconds` (since the Unix epoch), or
  /// `nil` if it is neither delay-seconds nor an IMF-fixdate.
  public static func parse(_ value: String, nowMilliseconds: Int64) -> Duration? {
    let trimmed = trim(value)
    guard !trimmed.isEmpty else { return nil }
    if trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      var seconds: Int64 = 0
      for digit in trimmed.utf8 {
        seconds = min(seconds * 10 + Int64(digit - 0x30), maximumSeconds)
      }
      return .seconds(seconds)
    }
    guard let date = HTTPDate.parseIMFFixdate(trimmed) else { return nil }
    let dateMilliseconds = date.multipliedReportingOverflow(by: 1000)
    guard !dateMilliseconds.overflow else { return nil }
    let waitMilliseconds = max(dateMilliseconds.partialValue - nowMilliseconds, 0)
    return .milliseconds(min(waitMilliseconds, maximumSeconds * 1000))
  }

  private static func trim(_ value: String) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    var slice = Substring(value)
    while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return slice
  }
}
