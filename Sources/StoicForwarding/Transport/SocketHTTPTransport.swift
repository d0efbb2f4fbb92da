internal import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``Transport`` for plain `http://` endpoints: HTTP/1.1 over POSIX sockets, nothing from
/// Foundation.
///
/// It exists because `URLSession` on Linux (swift-corelibs-foundation, as shipped with Swift
/// 6.3.1) traps with "Transfer completed, but there's no response" when a server closes the
/// connection after a status line but before the end of the response head: a collector that
/// dies mid-response, or a proxy that cuts a connection, would crash the sending process.
/// Here such a response is a ``TransportFailure/network(_:)``, retried like any other.
///
/// - Plain HTTP only (no TLS): `https://` endpoints go through ``URLSessionTransport``;
///   ``DefaultTransport`` picks between the two.
/// - Requests carry `Content-Length`; responses may use `Content-Length`, chunked transfer
///   coding, or run to the end of the connection. Interim `1xx` responses are skipped.
///   Redirects are returned, not followed.
/// - A response body is read up to ``maximumResponseBytes`` and cut there (the connection is
///   then closed, not reused); a response head may be at most 64 KiB.
/// - Idle connections are kept per host and reused (up to four each). A request whose reused
///   connection turns out to be closed before any byte of an answer arrives is sent again,
///   once, on a new connection.
/// - Each exchange runs on a thread of its own (the calls block), never on Swift's
///   cooperative pool: a `BlockingExecutor` taken for the exchange, kept afterwards for the next
///   (up to four idle), so there are at most as many threads as exchanges in progress (sends in
///   flight, and cancelled ones until their call returns, within the request's timeout) plus
///   four; the whole exchange, connecting included, is bounded by the request's
///   timeout, with millisecond precision. A send whose task is cancelled returns at once with
///   a network failure (`cancelled`): its connection is shut down, and a thread still
///   connecting closes it when the connect returns.
public final class SocketHTTPTransport: Transport {
  /// How much of a response body is read.
  public let maximumResponseBytes: Int
  private let idle = SleepingLock<[String: [Int32]]>([:])
  /// Threads (each a `BlockingExecutor`, the package's one home for blocking work) kept for the
  /// next exchanges: at most `keptThreads`.
  private let executors = SleepingLock<[BlockingExecutor]>([])
  /// How many idle threads are kept; the others end when their exchange does.
  static let keptThreads = 4

  /// Creates a transport.
  ///
  /// - Parameter maximumResponseBytes: How much of a response body to read (default 4 MiB).
  public init(maximumResponseBytes: Int = 4 << 20) {
    self.maximumResponseBytes = max(maximumResponseBytes, 0)
  }

  deinit {
    idle.withLock { pools in
      for descriptor in pools.values.joined() { PosixSocket.close(descriptor) }
    }
  }

  /// Sends `request` (an `http://` URL) and returns the answer.
  public func send(_ request: TransportRequest) async throws(TransportFailure)
    -> TransportResponse
  {
    let target = try HTTPTarget(url: request.url)
    // Cancelled already (a drain past its deadline): no thread, no connection.
    if Task.isCancelled { throw .network("cancelled") }
    let exchange = Exchange(transport: self, target: target, request: request)
    let answer = OneShotAnswer<Result<TransportResponse, TransportFailure>>()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>) in
        answer.wait(continuation)
        let executor = takeExecutor()
        Task {
          let result = await executor.run { exchange.run() }
          self.giveBack(executor)
          answer.give(result)
        }
      }
    } onCancel: {
      // The caller goes on at once; the exchange's thread, told to stop, closes its
      // connection when its call returns (a connect in progress runs to its own timeout).
      exchange.cancel()
      answer.give(.failure(.network("cancelled")))
    }
    return try result.get()
  }

  // MARK: Threads and connections

  /// A thread for one exchange: an idle one, or a new one.
  private func takeExecutor() -> BlockingExecutor {
    executors.withLock { $0.popLast() } ?? BlockingExecutor()
  }

  /// Keeps `executor`'s thread for the next exchange, or lets it end (released here).
  private func giveBack(_ executor: BlockingExecutor) {
    executors.withLock { kept in
      if kept.count < Self.keptThreads { kept.append(executor) }
    }
  }

  fileprivate func takeIdle(_ key: String) -> Int32? {
    idle.withLock { pools in pools[key]?.popLast() }
  }

  fileprivate func giveBack(_ descriptor: Int32, _ key: String) {
    let kept = idle.withLock { pools -> Bool in
      guard pools[key, default: []].count < 4 else { return false }
      pools[key, default: []].append(descriptor)
      return true
    }
    if !kept { PosixSocket.close(descriptor) }
  }
}

/// Where an `http://` URL points.
private struct HTTPTarget {
  var host: String
  var port: UInt16
  /// The path and query, `/` when empty.
  var requestTarget: String
  /// The `Host` header's value.
  var authority: String

  init(url: String) throws(TransportFailure) {
    let endpoint: OTLPEndpoint
    do {
      endpoint = try OTLPEndpoint(url)
    } catch {
      throw .network("the endpoint is not a usable http URL: \(error.message)")
    }
    guard endpoint.scheme == "http" else {
      throw .network("this transport sends to http:// endpoints only")
    }
    host = endpoint.host
    port = endpoint.effectivePort
    authority = endpoint.authority
    requestTarget = endpoint.requestTarget
  }

  var key: String { "\(host)|\(port)" }
}

/// One request and its answer, run on a thread of its own; cancellable from another.
private final class Exchange: Sendable {
  private let transport: SocketHTTPTransport
  private let target: HTTPTarget
  private let request: TransportRequest
  /// The connection in use (to shut it down on cancellation), and whether cancelled.
  private let state = SleepingLock<(descriptor: Int32?, cancelled: Bool)>((nil, false))

  init(transport: SocketHTTPTransport, target: HTTPTarget, request: TransportRequest) {
    self.transport = transport
    self.target = target
    self.request = request
  }

  func cancel() {
    state.withLock { state in
      state.cancelled = true
      if let descriptor = state.descriptor { PosixSocket.shutdownBoth(descriptor) }
    }
  }

  /// A failure before any byte of the answer arrived, on a reused connection: the server had
  /// closed it while idle, so the request is sent again on a new one.
  private struct StaleConnection: Error {}

  func run() -> Result<TransportResponse, TransportFailure> {
    let deadline = ContinuousClock.now + request.timeout
    let head = serialized()
    if let reused = transport.takeIdle(target.key) {
      do throws(TransportFailure) {
        if let response = try exchange(on: reused, head, deadline: deadline, reused: true) {
          return .success(response)
        }
      } catch {
        return .failure(error)
      }
    }
    if state.withLock({ $0.cancelled }) { return .failure(.network("cancelled")) }
    let descriptor: Int32
    do {
      descriptor = try PosixSocket.connect(
        host: target.host, port: target.port,
        timeout: max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)))
    } catch {
      return .failure(Self.failure(error))
    }
    do throws(TransportFailure) {
      guard let response = try exchange(on: descriptor, head, deadline: deadline, reused: false)
      else { return .failure(.network("the connection closed before a response")) }
      return .success(response)
    } catch {
      return .failure(error)
    }
  }

  /// Sends the request and reads the answer on `descriptor`, then keeps or closes it. `nil`
  /// for a reused connection that was already closed (nothing answered).
  private func exchange(
    on descriptor: Int32, _ head: [UInt8], deadline: ContinuousClock.Instant, reused: Bool
  ) throws(TransportFailure) -> TransportResponse? {
    let cancelled = state.withLock { state -> Bool in
      state.descriptor = descriptor
      return state.cancelled
    }
    var keep = false
    defer {
      state.withLock { $0.descriptor = nil }
      if keep { transport.giveBack(descriptor, target.key) } else { PosixSocket.close(descriptor) }
    }
    if cancelled { throw .network("cancelled") }
    guard PosixSocket.send(descriptor, head, request.body) else {
      if reused { return nil }
      throw .network("the connection was lost while sending")
    }
    var reader = HTTPResponseReader(
      descriptor: descriptor, deadline: deadline, limit: transport.maximumResponseBytes)
    do {
      let (response, reusable) = try reader.read()
      keep = reusable
      return response
    } catch .closedBeforeAnswer where reused {
      return nil
    } catch {
      if state.withLock({ $0.cancelled }) { throw .network("cancelled") }
      throw error.failure
    }
  }

  /// The request line and header block (the body is sent after it, from its own buffer).
  private func serialized() -> [UInt8] {
    var head = "\(request.method) \(target.requestTarget) HTTP/1.1\r\nHost: \(target.authority)\r\n"
    for (name, value) in request.headers.fields
    where !HTTPHeaders.sameName(name, "Host") && !HTTPHeaders.sameName(name, "Content-Length") {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(request.body.count)\r\n\r\n"
    return Array(head.utf8)
  }

  private static func failure(_ error: SocketError) -> TransportFailure {
    switch (error.call, error.code) {
    case ("getaddrinfo", _): .network("host not found")
    case (_, ETIMEDOUT): .timeout
    case (_, ECONNREFUSED): .network("connection refused")
    case (_, ENETUNREACH), (_, EHOSTUNREACH): .network("no route to host")
    default: .network("\(error.call) failed (errno \(error.code))")
    }
  }
}
