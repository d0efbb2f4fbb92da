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
