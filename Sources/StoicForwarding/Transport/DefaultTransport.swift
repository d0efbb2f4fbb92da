/// The transport an ``OTLPExporter`` uses unless given another: ``URLSessionTransport``, except
/// for plain `http://` endpoints on Linux, which go through ``SocketHTTPTransport``.
///
/// `URLSession` on Linux (Swift 6.3.1's FoundationNetworking) traps when a server closes the
/// connection partway through a response head, which would crash the sending process when a
/// collector dies mid-response; ``SocketHTTPTransport`` reports it as a network failure. It
/// speaks no TLS, so `https://` endpoints still go through `URLSession` (with the system's
/// certificate validation, always on). On Apple platforms everything goes through
/// `URLSession`.
public final class DefaultTransport: Transport {
  private let plain: any Transport
  private let secure: URLSessionTransport

  /// Creates the transports, each reading at most `maximumResponseBytes` of a response body.
  public init(maximumResponseBytes: Int = 4 << 20) {
    secure = URLSessionTransport(maximumResponseBytes: maximumResponseBytes)
    #if os(Linux)
      plain = SocketHTTPTransport(maximumResponseBytes: maximumResponseBytes)
    #else
      plain = secure
    #endif
  }

  /// Sends `request` through the transport for its scheme.
  public func send(_ request: TransportRequest) async throws(TransportFailure)
    -> TransportResponse
  {
    if request.url.lowercased().hasPrefix("http://") {
      return try await plain.send(request)
    }
    return try await secure.send(request)
  }
}
