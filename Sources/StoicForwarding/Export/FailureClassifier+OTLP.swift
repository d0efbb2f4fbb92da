public import StoicStore

extension FailureClassifier {
  /// OTLP/HTTP's retry rules (opentelemetry-proto's `docs/specification.md`, "Failures",
  /// "OTLP/HTTP Throttling" and "All Other Responses"), mapped onto the outbox without losing
  /// a record: what the specification says not to retry is parked (kept, counted, shown by
  /// `stoic inspect`, requeueable), never dropped.
  ///
  /// | answer | specification | here |
  /// | --- | --- | --- |
  /// | 2xx | success | delivered |
  /// | 2xx with `partial_success` | success, do not retry | delivered, rejected count reported |
  /// | 429, 502, 503, 504 | retryable, honour `Retry-After` | transient, honouring `Retry-After` (seconds or an HTTP date) |
  /// | no answer (connection dropped, refused, timed out) | retry with backoff | transient |
  /// | 401, 403 | not retryable | halt: kept in line, reason stored, drain stops and backs off |
  /// | 408 | not retryable | transient |
  /// | any other 4xx | not retryable | permanent: parked |
  /// | any other 5xx, any other status | not retryable | permanent: parked |
  ///
  /// The deliberate differences: a 401 or 403 says the credential is wrong, not the payload,
  /// and every batch would get the same answer; parking would move the whole backlog aside for
  /// a token fixed in minutes, so the batch stays in line, the drain stops and the reason is
  /// stored as the batch's last error and raised as `forwarding.unauthorized`. A 408 means
  /// the server gave up waiting for the request (RFC 9110 §15.5.9: the client "MAY repeat that
  /// request"), a fault of the connection, not of the payload: it is retried like a dropped
  /// connection.
  public static let otlp = FailureClassifier { response, now in
    otlpClassification(of: response, nowMilliseconds: now)
  }

  /// The decision of ``otlp`` for one response.
  public static func otlpClassification(of response: DeliveryResponse, nowMilliseconds: Int64)
    -> DeliveryClassification
  {
    guard case .http(let status, let retryAfterHeader) = response else {
      return standardClassification(of: response, nowMilliseconds: nowMilliseconds)
    }
    switch status {
    case 200..<300:
      return .delivered(rejected: 0)
    case 401, 403:
      return .halt(reason: "HTTP \(status): the receiver refused the credentials")
    case 408, 429, 502, 503, 504:
      let wait = retryAfterHeader.flatMap {
        RetryAfter.parse($0, nowMilliseconds: nowMilliseconds)
      }
      return .transient(reason: "HTTP \(status)", retryAfter: wait)
    default:
      return .permanent(reason: "HTTP \(status)")
    }
  }
}
