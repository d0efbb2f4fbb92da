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
