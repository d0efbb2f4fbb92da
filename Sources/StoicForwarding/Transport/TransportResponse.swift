/// What a receiver answered.
public struct TransportResponse: Sendable, Hashable {
  /// The HTTP status.
  public var status: Int
  /// The response's header fields (`Retry-After`, `Content-Type`, …).
  public var headers: HTTPHeaders
  /// The body, up to the transport's limit (see ``isBodyComplete``).
  public var body: [UInt8]
  /// Whether ``body`` is the whole body; `false` when it was cut at the transport's limit
  /// (OTLP asks clients to bound what they read of a response).
  public var isBodyComplete: Bool

  /// Creates a response.
  public init(
    status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
    isBodyComplete: Bool = true
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.isBodyComplete = isBodyComplete
  }
}
