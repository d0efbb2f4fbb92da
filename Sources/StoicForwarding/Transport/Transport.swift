/// Sends one HTTP request and reports what came back: the seam between the forwarder and the
/// network.
///
/// ``URLSessionTransport`` is the default. Tests (and apps with their own HTTP stack) supply
/// their own: a conforming type must be safe to call from several tasks at once, must bound
/// how much of a response body it reads, and must never write header values anywhere (they
/// may be credentials).
public protocol Transport: Sendable {
  /// Sends `request` and returns the receiver's answer, whatever its status.
  ///
  /// - Throws: ``TransportFailure`` when there was no HTTP answer at all.
  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse
}

/// One HTTP request for a ``Transport`` to send.
///
/// Printing it shows the method, the path, the body's size and the header names; never the
/// header values (they may carry credentials), the body, or the URL's user information.
public struct TransportRequest: Sendable, CustomStringConvertible {
  /// The full URL (`https://collector.example:4318/v1/logs`).
  public var url: String
  /// The method; `POST` for OTLP.
  public var method: String
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body, as it goes on the wire (compressed if `Content-Encoding` says so).
  public var body: [UInt8]
  /// How long the whole exchange may take before it counts as a timeout.
  public var timeout: Duration

  /// Creates a request.
  public init(
    url: String, method: String = "POST", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8],
    timeout: Duration = .seconds(30)
  ) {
    self.url = url
    self.method = method
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// `POST /v1/logs (1234 bytes) [Content-Type: <hidden>, …]`.
  public var description: String {
    "\(method) \(Self.path(of: url)) (\(body.count) bytes) \(headers)"
  }

  /// The path of `url`: what follows its authority, without the query.
  static func path(of url: String) -> Substring {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    let path = rest[slash...]
    return path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? path
  }
}

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

/// A request that got no HTTP answer.
///
/// The reason names what happened (`connection refused`, `TLS handshake failed`), never the
/// URL or a header, so it can be logged and stored.
public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// No answer: no route, DNS failure, connection refused or reset, TLS failure, a dropped
  /// connection.
  case network(String)
  /// The exchange took longer than the request's timeout.
  case timeout

  /// `network error: …` or `timeout`.
  public var description: String {
    switch self {
    case .network(let reason): "network error: \(reason)"
    case .timeout: "timeout"
    }
  }
}
