/// Turns a ``DeliveryResponse`` into a ``DeliveryClassification``.
///
/// ``standard`` is the table the outbox uses unless the app supplies its own:
///
/// | response | decision |
/// | --- | --- |
/// | 2xx | delivered |
/// | OTLP partial success | delivered, rejected count reported, not retried |
/// | 401, 403 | transient: a wrong session, not a wrong payload |
/// | 408, 425, 429 | transient: "not now" |
/// | any other 4xx | permanent: the receiver refuses this payload |
/// | 5xx (and any other status) | transient |
/// | network error, timeout | transient |
///
/// A `Retry-After` header (seconds or an IMF-fixdate) on a transient answer is parsed and
/// honoured. An app that knows its receiver refines the table with ``overriding(_:)``.
public struct FailureClassifier: Sendable {
  private let body: @Sendable (DeliveryResponse, Int64) -> DeliveryClassification

  /// Creates a classifier from a closure taking the response and the current time
  /// (milliseconds since the Unix epoch, for `Retry-After` dates).
  public init(_ body: @escaping @Sendable (DeliveryResponse, Int64) -> DeliveryClassification) {
    self.body = body
  }

  /// Classifies `response` at wall-clock time `nowMilliseconds` (since the Unix epoch).
  public func classify(_ response: DeliveryResponse, nowMilliseconds: Int64)
    -> DeliveryClassification
  {
    body(response, nowMilliseconds)
  }

  /// The standard table (see the type's documentation).
  public static let standard = FailureClassifier { response, now in
    standardClassification(of: response, nowMilliseconds: now)
  }

  /// The standard table, with the app's closure consulted first: it returns a decision for the
  /// responses it knows better (say, a receiver's 405 meaning "restart me and retry"), or
  /// `nil` to fall back to ``standard``.
  public static func overriding(
    _ override: @escaping @Sendable (DeliveryResponse) -> DeliveryClassification?
  ) -> FailureClassifier {
    FailureClassifier { response, now in
      override(response) ?? standardClassification(of: response, nowMilliseconds: now)
    }
  }

  /// The standard decision for one response: the small, pure function behind ``standard``.
  ///
  /// - Parameters:
  ///   - response: What the delivery attempt returned.
  ///   - nowMilliseconds: The current wall-clock time, to turn a `Retry-After` date into a wait.
  public static func standardClassification(
    of response: DeliveryResponse, nowMilliseconds: Int64
  ) -> DeliveryClassification {
    switch response {
    case .partialSuccess(let rejected, _):
      return .delivered(rejected: max(rejected, 0))
    case .networkError(let message):
      return .transient(reason: "network error: \(message)", retryAfter: nil)
    case .timeout:
      return .transient(reason: "timeout", retryAfter: nil)
    case .http(let status, let retryAfterHeader):
      let wait = retryAfterHeader.flatMap {
        RetryAfter.parse($0, nowMilliseconds: nowMilliseconds)
      }
      switch status {
      case 200..<300:
        return .delivered(rejected: 0)
      case 401, 403, 408, 425, 429:
        return .transient(reason: "HTTP \(status)", retryAfter: wait)
      case 400..<500:
        return .permanent(reason: "HTTP \(status)")
      default:
        return .transient(reason: "HTTP \(status)", retryAfter: wait)
      }
    }
  }
}

/// What one delivery attempt came back with, as the app's delivery closure reports it.
///
/// The outbox never talks to the network itself: the closure sends, and describes the outcome
/// with one of these. ``FailureClassifier`` turns it into a decision (delivered, retry later,
/// park).
public enum DeliveryResponse: Sendable, Hashable {
  /// The receiver answered with an HTTP status, and the raw `Retry-After` header if it sent
  /// one (delay-seconds or an HTTP date).
  case http(status: Int, retryAfter: String? = nil)
  /// An OTLP export answered 200 with a `partialSuccess` that rejected `rejected` items (log
  /// records or data points). The batch is delivered and must not be retried; the count is
  /// reported.
  case partialSuccess(rejected: Int, message: String = "")
  /// The request never got an answer: no route, connection refused or reset, DNS failure.
  case networkError(String)
  /// The request timed out.
  case timeout
}

/// The decision for one delivery attempt: done, try again later, or park.
public enum DeliveryClassification: Sendable, Hashable {
  /// The receiver has the entries. `rejected` counts items an OTLP partial success refused
  /// (0 for a plain 2xx); they are reported, never retried.
  case delivered(rejected: Int)
  /// "Not now": a busy receiver, a wrong session, a network failure. The entry goes back in
  /// line. `retryAfter` is the wait the receiver asked for, if it asked.
  case transient(reason: String, retryAfter: Duration?)
  /// The receiver refuses this payload; sending it again cannot succeed. The entry is parked
  /// (kept, visible, re-queueable by the app) and the drain continues with the next one.
  case permanent(reason: String)
  /// The receiver refuses the sender, not this payload (a 401 or 403: a missing, wrong or
  /// expired credential), so every other entry would get the same answer: the entry goes back
  /// in line (nothing is parked or lost), its reason is stored durably as its last error, and
  /// the drain stops at once, for its caller to back off and try again later.
  case halt(reason: String)
}
