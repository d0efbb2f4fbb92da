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
