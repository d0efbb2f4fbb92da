public import StoicStore

extension DeliveryResponse {
  /// What an OTLP/HTTP answer means to the outbox, which a ``FailureClassifier`` then turns
  /// into a decision (the forwarder's default, ``FailureClassifier/otlp``: 2xx delivered; 408,
  /// 429, 502, 503, 504 transient, honouring `Retry-After`; 401, 403 halt; any other status
  /// permanent).
  ///
  /// A 2xx whose body is an `Export…ServiceResponse` with a `partialSuccess` becomes
  /// ``DeliveryResponse/partialSuccess(rejected:message:)``: delivered, not retried, its
  /// rejected count (and a warning's message, with a count of 0) reported. A 2xx body that
  /// does not decode, or was cut at the transport's limit, is a plain success: the receiver
  /// said it has the data. Any other status keeps its `Retry-After`.
  ///
  /// - Parameters:
  ///   - response: The receiver's answer.
  ///   - signal: What the request carried, which says how to read a success body.
  public init(otlp response: TransportResponse, signal: OTLPSignal) {
    guard (200..<300).contains(response.status) else {
      self = .http(status: response.status, retryAfter: response.headers["Retry-After"])
      return
    }
    guard let partial = Self.partialSuccess(in: response, signal: signal) else {
      self = .http(status: response.status)
      return
    }
    self = .partialSuccess(rejected: Int(clamping: partial.count), message: partial.message)
  }

  /// What a request that got no answer means to the outbox: a network error or a timeout
  /// (both transient).
  public init(otlp failure: TransportFailure) {
    switch failure {
    case .network(let reason): self = .networkError(reason)
    case .timeout: self = .timeout
    }
  }

  /// The largest success body that is decompressed to look for a partial success.
  static let maximumResponseBytes = 4 << 20

  private static func partialSuccess(in response: TransportResponse, signal: OTLPSignal)
    -> (count: Int64, message: String)?
  {
    guard response.isBodyComplete, !response.body.isEmpty else { return nil }
    var body = response.body
    if response.headers["Content-Encoding"]?.lowercased() == "gzip" {
      guard let inflated = try? Gzip.decompress(body, maxOutputSize: maximumResponseBytes) else {
        return nil
      }
      body = inflated
    }
    let encoding =
      response.headers["Content-Type"].flatMap { OTLPEncoding(contentType: $0) } ?? .protobuf
    let partial = signal.forwarded.partialSuccess(in: body, as: encoding)
    guard let partial, partial.count != 0 || !partial.message.isEmpty else { return nil }
    return partial
  }
}
