/// Faults the collector injects into its answers to OTLP requests, for tests of a sender's
/// retries. All off by default. They apply to `POST /v1/logs`, `/v1/metrics` and `/v1/traces`
/// in the order requests arrive; random ones draw from a generator seeded with ``seed``, so a
/// run is repeatable.
///
/// For each request, in this order: drop it mid-request (nothing stored), else answer it with
/// ``failStatus`` (nothing stored), else store it (or find its key already stored), wait
/// ``delay``, and drop the connection mid-response (stored, never answered) or answer.
public struct CollectorFaults: Sendable, Hashable {
  /// Answer the first this many requests with ``failStatus`` and ``retryAfter``.
  public var failFirst: Int
  /// The status failed requests get (503 by default).
  public var failStatus: Int
  /// The `Retry-After` value sent with failed requests (`"1"`, or an HTTP date), if any.
  public var retryAfter: String?
  /// After the first ``failFirst``, the probability (0 … 1) that a request is failed.
  public var failureRate: Double
  /// Wait this long before answering each request (after storing it).
  public var delay: Duration
  /// Drop the connection after reading part of the body of the first this many requests.
  public var dropFirstRequests: Int
  /// The probability that a request is dropped mid-request.
  public var dropRequestRate: Double
  /// Store the first this many requests, then drop the connection partway through the
  /// response: the collector has the batch, the sender never hears.
  public var dropFirstResponses: Int
  /// The probability that a stored request's response is dropped.
  public var dropResponseRate: Double
  /// The seed of the generator the rates draw from.
  public var seed: UInt64

  /// Creates a set of faults; everything is off unless given.
  public init(
    failFirst: Int = 0, failStatus: Int = 503, retryAfter: String? = nil,
    failureRate: Double = 0, delay: Duration = .zero, dropFirstRequests: Int = 0,
    dropRequestRate: Double = 0, dropFirstResponses: Int = 0, dropResponseRate: Double = 0,
    seed: UInt64 = 1
  ) {
    self.failFirst = failFirst
    self.failStatus = failStatus
    self.retryAfter = retryAfter
    self.failureRate = failureRate
    self.delay = delay
    self.dropFirstRequests = dropFirstRequests
    self.dropRequestRate = dropRequestRate
    self.dropFirstResponses = dropFirstResponses
    self.dropResponseRate = dropResponseRate
    self.seed = seed
  }

  /// Whether any fault is set.
  public var isEmpty: Bool {
    self == CollectorFaults(seed: seed)
  }
}
