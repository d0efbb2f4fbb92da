import Foundation
import StoicForwarding
import StoicStore
import Synchronization
import Testing

@testable import StoicCollector

/// A loopback server that answers each of a bounded number of connections with a canned
/// response, and records the requests it read. It stops by itself after `connections`
/// connections or 20 s.
final class CannedServer: Sendable {
  let port: UInt16
  let requests = SleepingLock<[[UInt8]]>([])
  private let listener: Int32

  /// `respond` gets the request bytes and returns the bytes to send (`nil`: send nothing and
  /// hold the connection open until the client gives up).
  init(connections: Int, respond: @escaping @Sendable ([UInt8]) -> [UInt8]?) throws {
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    self.port = port
    listener = descriptor
    PosixThread.detach { [self] in
      let deadline = ContinuousClock.now + .seconds(20)
      var served = 0
      while served < connections, ContinuousClock.now < deadline {
        guard PosixSocket.waitReadable(descriptor, milliseconds: 100),
          let connection = PosixSocket.accept(descriptor)
        else { continue }
        served += 1
        var buffer: [UInt8] = []
        // Read the head and its Content-Length body.
        while ContinuousClock.now < deadline {
          if let end = HTTPRequestParser.find(HTTPRequestParser.crlfcrlf, in: buffer, from: 0) {
            let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
            let length =
              head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
              .flatMap {
                Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
              }
              ?? 0
            if buffer.count >= end + 4 + length { break }
          }
          guard PosixSocket.waitReadable(connection, milliseconds: 100) else { continue }
          guard let count = PosixSocket.receive(connection, into: &buffer, count: 65536), count > 0
          else { break }
        }
        self.requests.withLock { $0.append(buffer) }
        if let response = respond(buffer) {
          PosixSocket.send(connection, response)
        } else {
          _ = RawHTTP.waitForClose(connection, timeout: .seconds(10))
        }
        PosixSocket.close(connection)
      }
      PosixSocket.close(descriptor)
    }
  }

  var url: String { "http://127.0.0.1:\(port)/v1/logs" }
}

/// The transports against real sockets on loopback: what they send, and what they do with
/// redirects, large bodies, refused connections, silence and responses cut short.
@Suite("Transports", .serialized)
struct TransportTests {
  enum Kind: String, CaseIterable, Sendable {
    case urlSession
    case socket

    func make(maximumResponseBytes: Int = 4 << 20) -> any Transport {
      switch self {
      case .urlSession: URLSessionTransport(maximumResponseBytes: maximumResponseBytes)
      case .socket: SocketHTTPTransport(maximumResponseBytes: maximumResponseBytes)
      }
    }
  }

  static func request(_ url: String, timeout: Duration = .seconds(10)) -> TransportRequest {
    TransportRequest(
      url: url,
      headers: [
        "Content-Type": "application/x-protobuf", "Idempotency-Key": "key-1",
        "Authorization": "Bearer secret",
      ], body: Array("body bytes".utf8), timeout: timeout)
  }

  /// Stops a collector from a `defer` in async code (which cannot await).
  static func stop(_ collector: Collector) {
    try? collector.stop()
  }

  static func isNetworkFailure(_ error: any Error) -> Bool {
    if case .network = error as? TransportFailure { return true }
    return false
  }

  @Test(
    "sends the method, headers and body; returns status, headers and body", arguments: Kind.allCases
  )
  func roundTrip(kind: Kind) async throws {
    let server = try CannedServer(connections: 1) { _ in
      Array(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 3\r\n\r\nabc".utf8)
    }
    let response = try await kind.make().send(Self.request(server.url))
    #expect(response.status == 503)
    #expect(response.headers["retry-after"] == "7")
    #expect(response.body == Array("abc".utf8))
    #expect(response.isBodyComplete)
    let sent = String(decoding: try #require(server.requests.withLock { $0.first }), as: UTF8.self)
    #expect(sent.hasPrefix("POST /v1/logs HTTP/1.1\r\n"))
    #expect(sent.contains("Idempotency-Key: key-1\r\n"))
    #expect(sent.contains("Authorization: Bearer secret\r\n"))
    #expect(sent.lowercased().contains("content-length: 10\r\n"))
    #expect(sent.hasSuffix("\r\n\r\nbody bytes"))
  }

  @Test(
    "a redirect is returned, not followed (it would carry the credentials elsewhere)",
    arguments: Kind.allCases)
  func redirectNotFollowed(kind: Kind) async throws {
    let server = try CannedServer(connections: 2) { _ in
      Array(
        "HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n".utf8)
    }
    let response = try await kind.make().send(Self.request(server.url))
    #expect(response.status == 307)
    #expect(server.requests.withLock { $0.count } == 1)
  }

  @Test("a response body is read up to the limit, then cut", arguments: Kind.allCases)
  func bodyLimit(kind: Kind) async throws {
    let body = [UInt8](repeating: 0x61, count: 1 << 20)
    let server = try CannedServer(connections: 1) { _ in
      Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }
    let response = try await kind.make(maximumResponseBytes: 1000).send(Self.request(server.url))
    #expect(response.status == 200)
    #expect(response.body.count == 1000)
    #expect(!response.isBodyComplete)
  }

  @Test("no listener: a network failure that names no URL", arguments: Kind.allCases)
  func refused(kind: Kind) async throws {
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    PosixSocket.close(descriptor)
    let url =
      kind == .socket
      ? "http://127.0.0.1:\(port)/v1/logs" : "http://user:pw@127.0.0.1:\(port)/v1/logs"
    await #expect {
      try await kind.make().send(Self.request(url))
    } throws: { error in
      guard case .network(let reason) = error as? TransportFailure else { return false }
      return !reason.contains("127.0.0.1") && !reason.contains("pw")
    }
  }

  @Test(
    "silence past the timeout is a timeout; no answer at all a network failure",
    arguments: Kind.allCases)
  func silenceAndDrops(kind: Kind) async throws {
    let silent = try CannedServer(connections: 1) { _ in nil }
    let start = ContinuousClock.now
    await #expect(throws: TransportFailure.timeout) {
      try await kind.make().send(Self.request(silent.url, timeout: .milliseconds(500)))
    }
    let waited = ContinuousClock.now - start
    // URLSession on Linux counts whole seconds, so its 500 ms is rounded up to one second.
    let least: Duration = kind == .urlSession ? .milliseconds(900) : .milliseconds(450)
    #expect(waited >= least && waited < .seconds(5))
    let dropping = try CannedServer(connections: 1) { _ in [] }
    await #expect {
      try await kind.make().send(Self.request(dropping.url))
    } throws: { error in
      Self.isNetworkFailure(error)
    }
  }

  @Test(
    "a response cut inside its head or body is a network failure, never a crash",
    arguments: [
      "HTTP/1.1 200 OK\r\nContent-Ty", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 20",
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
      "SSH-2.0-OpenSSH\r\n\r\n",
    ])
  func cutResponses(answer: String) async throws {
    // URLSession on Linux traps on the first two (a head cut after its status line); the
    // default transport sends http:// through the socket transport, which does not.
    let server = try CannedServer(connections: 1) { _ in Array(answer.utf8) }
    await #expect {
      try await DefaultTransport().send(Self.request(server.url))
    } throws: { error in
      Self.isNetworkFailure(error)
    }
  }

  @Test("socket transport: chunked and close-delimited bodies, interim 100 Continue, reuse")
  func socketFraming() async throws {
    let answers = [
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n",
      "HTTP/1.0 200 OK\r\n\r\nuntil the end",
    ]
    for answer in answers {
      let server = try CannedServer(connections: 1) { _ in Array(answer.utf8) }
      let response = try await SocketHTTPTransport().send(Self.request(server.url))
      #expect(response.status == 200)
      #expect(response.isBodyComplete)
      #expect(response.body == Array((answer == answers[0] ? "abcde" : "until the end").utf8))
    }
    // Kept-alive connections are reused: three requests, one connection. The collector keeps
    // an idle connection far longer than its default 30 s, so that a machine slow enough to
    // leave that long between two requests (a sanitizer's run beside other builds) does not
    // make the server close it: what is checked is the client's reuse.
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Collector.start(
      CollectorOptions(
        dataDirectory: directory, limits: CollectorLimits(idleTimeout: .seconds(3600))))
    defer { Self.stop(collector) }
    let transport = SocketHTTPTransport()
    for _ in 0..<3 {
      var request = Self.request(collector.baseURL + "/stats")
      request.method = "GET"
      request.body = []
      #expect(try await transport.send(request).status == 200)
    }
    #expect(collector.stats.connections == 1)
  }

  @Test("socket transport: a kept connection the server has closed is replaced, once")
  func socketStaleConnection() async throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = CollectorOptions(dataDirectory: directory)
    options.limits.idleTimeout = .milliseconds(200)
    let collector = try await Collector.start(options)
    defer { Self.stop(collector) }
    let transport = SocketHTTPTransport()
    var request = Self.request(collector.baseURL + "/stats")
    request.method = "GET"
    request.body = []
    #expect(try await transport.send(request).status == 200)
    try await Task.sleep(for: .milliseconds(600))  // the collector closes the idle connection
    #expect(try await transport.send(request).status == 200)
    #expect(collector.stats.connections == 2)
  }

  @Test("socket transport: URLs it cannot use are refused before connecting")
  func socketURLs() async {
    for url in [
      "https://127.0.0.1/v1/logs", "http://user:pw@127.0.0.1/x", "http:///x", "http://h:99999/x",
      "http://[::1/x",
    ] {
      await #expect {
        try await SocketHTTPTransport().send(Self.request(url))
      } throws: { error in
        Self.isNetworkFailure(error) && !"\(error)".contains("pw")
      }
    }
  }
}
