import Foundation
internal import StoicStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default ``Transport``: `URLSession` (over libcurl on Linux).
///
/// - TLS: certificates are validated by the system, always; there is no setting that turns
///   validation off.
/// - Redirects are not followed: the 3xx answer is returned as it is (a redirect would carry
///   the request's credentials to another address).
/// - Cookies and caches are off (an ephemeral session).
/// - A response body is read up to ``maximumResponseBytes`` (OTLP recommends 4 MiB); beyond
///   that the exchange is cut and the response returned with
///   ``TransportResponse/isBodyComplete`` `false`.
/// - Failures are reported by kind (``TransportFailure``), never with the URL or a header.
/// - Timeouts count whole seconds (URLSession on Linux drops the fraction): a request's
///   timeout is rounded up to the next second, and is at least one.
///
/// Sending suspends the calling task without blocking a thread.
public final class URLSessionTransport: Transport, @unchecked Sendable {
  // @unchecked: URLSession and the delegate are thread-safe; the delegate's state is behind a
  // lock.
  private let session: URLSession
  private let delegate: URLSessionTransportDelegate
  /// How much of a response body is read.
  public let maximumResponseBytes: Int

  /// Creates a transport with its own session.
  ///
  /// - Parameter maximumResponseBytes: How much of a response body to read (default 4 MiB).
  public init(maximumResponseBytes: Int = 4 << 20) {
    self.maximumResponseBytes = max(maximumResponseBytes, 0)
    delegate = URLSessionTransportDelegate(limit: self.maximumResponseBytes)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    session.invalidateAndCancel()
  }

  /// Sends `request`; see the type's documentation for what is and is not done.
  public func send(_ request: TransportRequest) async throws(TransportFailure)
    -> TransportResponse
  {
    guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else {
      throw TransportFailure.network("the endpoint is not an http or https URL")
    }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method
    for (name, value) in request.headers.fields {
      urlRequest.addValue(value, forHTTPHeaderField: name)
    }
    urlRequest.httpBody = Data(request.body)
    // URLSession on Linux keeps whole seconds of the interval (0.5 s would time out at once):
    // round up, to at least one second.
    let (seconds, attoseconds) = request.timeout.components
    urlRequest.timeoutInterval = Double(max(seconds + (attoseconds > 0 ? 1 : 0), 1))
    let task = session.dataTask(with: urlRequest)
    let delegate = self.delegate
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        delegate.register(task, continuation)
        task.resume()
      }
    } onCancel: {
      task.cancel()
    }
    return try outcome.get()
  }
}

/// Collects each task's response and body, cuts bodies at the limit, refuses redirects.
private final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate,
  @unchecked Sendable
{
  // @unchecked: every mutable state is in `pending`, behind its lock (a pthread mutex: ThreadSanitizer
  // misreads Synchronization.Mutex on this toolchain).
  private struct Pending {
    var continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    var cut = false
  }

  private let limit: Int
  private let pending = SleepingLock<[Int: Pending]>([:])

  init(limit: Int) {
    self.limit = limit
  }

  func register(
    _ task: URLSessionTask,
    _ continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>
  ) {
    pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    pending.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let overLimit = pending.withLock { tasks -> Bool in
      guard var entry = tasks[dataTask.taskIdentifier], !entry.cut else { return false }
      let room = limit - entry.body.count
      if data.count > room {
        entry.body.append(contentsOf: data.prefix(max(room, 0)))
        entry.cut = true
      } else {
        entry.body.append(contentsOf: data)
      }
      tasks[dataTask.taskIdentifier] = entry
      return entry.cut
    }
    if overLimit { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    if let response = entry.response, error == nil || entry.cut {
      var headers = HTTPHeaders()
      for (name, value) in response.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers.add(name, value) }
      }
      entry.continuation.resume(
        returning: .success(
          TransportResponse(
            status: response.statusCode, headers: headers, body: entry.body,
            isBodyComplete: !entry.cut)))
    } else {
      entry.continuation.resume(returning: .failure(Self.failure(for: error)))
    }
  }

  /// A failure named by its kind, never by the URL.
  private static func failure(for error: (any Error)?) -> TransportFailure {
    guard let urlError = error as? URLError else {
      return .network(error == nil ? "no response" : "the request failed")
    }
    switch urlError.code {
    case .timedOut: return .timeout
    case .cannotConnectToHost: return .network("connection refused")
    case .cannotFindHost, .dnsLookupFailed: return .network("host not found")
    case .networkConnectionLost: return .network("connection lost")
    case .notConnectedToInternet: return .network("not connected")
    case .secureConnectionFailed: return .network("TLS handshake failed")
    case .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected, .clientCertificateRequired:
      return .network("the server's certificate was not accepted")
    case .cancelled: return .network("cancelled")
    case .badServerResponse: return .network("the server's response was not HTTP")
    case .unsupportedURL, .badURL: return .network("the endpoint is not a usable URL")
    default: return .network("URL error \(urlError.code.rawValue)")
    }
  }
}
