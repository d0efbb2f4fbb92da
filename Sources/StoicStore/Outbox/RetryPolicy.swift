/// How a drain retries a transient failure: exponential backoff with full jitter, a cap, a
/// number of attempts per entry and a budget of retries for the whole drain.
///
/// The wait before retry `n` (1-based) is uniform in `0 ... min(maxDelay, initialDelay · 2ⁿ⁻¹)`
/// ("full jitter"), drawn from the outbox's ``OutboxRandom``. A `Retry-After` the receiver sent
/// replaces the jittered wait; one longer than ``maxRetryAfter`` stops the drain instead, and
/// the outbox does not send again before the time it asked for, or ``longestHold`` from now if
/// that comes first (a receiver that asks for a day, or a date in 9999, is asked again after
/// it: the spool's age and quota limits would drop what waits a day).
///
/// When an entry's attempts or the drain's budget run out, the entry goes back in line and the
/// drain stops: the rest of the queue would fail the same way.
public struct RetryPolicy: Sendable, Hashable {
  /// The ceiling of the first retry's wait.
  public var initialDelay: Duration
  /// The cap on any jittered wait.
  public var maxDelay: Duration
  /// Attempts per entry (or batch) within one drain; 1 means no retry.
  public var maxAttempts: Int
  /// Retries allowed across one whole drain.
  public var drainBudget: Int
  /// The longest `Retry-After` a drain waits out; a longer one ends the drain.
  public var maxRetryAfter: Duration
  /// The longest a receiver's `Retry-After` holds the outbox's sends back after it ended a
  /// drain: a longer wait is cut to this, and the receiver is asked again then.
  public var longestHold: Duration

  /// Creates a policy.
  public init(
    initialDelay: Duration = .milliseconds(500),
    maxDelay: Duration = .seconds(30),
    maxAttempts: Int = 5,
    drainBudget: Int = 20,
    maxRetryAfter: Duration = .seconds(60),
    longestHold: Duration = .seconds(300)
  ) {
    self.initialDelay = initialDelay
    self.maxDelay = maxDelay
    self.maxAttempts = max(maxAttempts, 1)
    self.drainBudget = max(drainBudget, 0)
    self.maxRetryAfter = maxRetryAfter
    self.longestHold = max(longestHold, .zero)
  }

  /// 500 ms doubling up to 30 s, 5 attempts per entry, 20 retries per drain, `Retry-After` up
  /// to a minute within a drain, a longer one holding the sends back at most 5 minutes.
  public static let standard = RetryPolicy()

  /// One attempt per entry: the first transient failure ends the drain.
  public static let noRetry = RetryPolicy(maxAttempts: 1, drainBudget: 0)

  /// The ceiling of the wait before retry `retry` (1-based): `min(maxDelay, initialDelay · 2ⁿ⁻¹)`.
  public func ceiling(beforeRetry retry: Int) -> Duration {
    let base = initialDelay.clampedNanoseconds
    let cap = maxDelay.clampedNanoseconds
    let shift = min(max(retry - 1, 0), 62)
    let grown = base.multipliedReportingOverflow(by: UInt64(1) << UInt64(shift))
    let ceiling = grown.overflow ? cap : min(grown.partialValue, cap)
    return .nanoseconds(Int64(min(ceiling, UInt64(Int64.max))))
  }

  /// The jittered wait before retry `retry` (1-based): uniform in `0 ... ceiling`, using
  /// `random` (a uniformly distributed 64-bit value).
  public func delay(beforeRetry retry: Int, random: UInt64) -> Duration {
    let ceiling = self.ceiling(beforeRetry: retry).clampedNanoseconds
    let span = ceiling.addingReportingOverflow(1)
    let wait = span.overflow ? random : random.multipliedFullWidth(by: span.partialValue).high
    return .nanoseconds(Int64(min(wait, UInt64(Int64.max))))
  }
}

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
