import Foundation
import StoicForwarding
import Testing

@testable import StoicCollector

/// Hand-written HTTP/1.1 exchanges over a loopback socket, for requests no HTTP client would
/// send (malformed, slow, half-finished) and for reading exactly what the collector answers.
enum RawHTTP {
  struct Response {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
  }

  /// A connected socket to 127.0.0.1:`port`.
  static func connect(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(connected == 0, "connect: errno \(errno)")
    return descriptor
  }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  static func canConnect(port: UInt16) -> Bool {
    guard
      let descriptor = try? PosixSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(1))
    else { return false }
    close(descriptor)
    return true
  }

  /// Sends `request` on a new connection and reads one response (up to `timeout`).
  static func exchange(
    port: UInt16, _ request: [UInt8], timeout: Duration = .seconds(10)
  ) throws -> Response {
    let descriptor = try connect(port: port)
    defer { close(descriptor) }
    PosixSocket.send(descriptor, request)
    return try #require(readResponse(descriptor, timeout: timeout))
  }

  /// Reads one response from `descriptor`; `nil` if the connection closed or the time ran
  /// out before a whole one arrived.
  static func readResponse(_ descriptor: Int32, timeout: Duration = .seconds(10)) -> Response? {
    var buffer: [UInt8] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let response = parse(buffer) { return response }
      guard PosixSocket.waitReadable(descriptor, milliseconds: 50) else { continue }
      guard let count = PosixSocket.receive(descriptor, into: &buffer, count: 65536), count > 0
      else { return parse(buffer) }
    }
    return nil
  }

  /// Whether the peer closes `descriptor` (reads end of stream or an error) within `timeout`,
  /// discarding whatever arrives first. Returns what arrived and whether it closed.
  static func waitForClose(_ descriptor: Int32, timeout: Duration) -> (bytes: [UInt8], closed: Bool)
  {
    var buffer: [UInt8] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      guard PosixSocket.waitReadable(descriptor, milliseconds: 50) else { continue }
      guard let count = PosixSocket.receive(descriptor, into: &buffer, count: 65536), count > 0
      else { return (buffer, true) }
    }
    return (buffer, false)
  }

  /// A response, if `buffer` holds a whole one (head and `Content-Length` body).
  static func parse(_ buffer: [UInt8]) -> Response? {
    guard let end = HTTPRequestParser.find(HTTPRequestParser.crlfcrlf, in: buffer, from: 0) else {
      return nil
    }
    let head = String(decoding: buffer[0..<end], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
    let headers = lines.compactMap { line -> (String, String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    let length =
      Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
    guard buffer.count >= end + 4 + length else { return nil }
    return Response(
      status: status, headers: headers, body: Array(buffer[(end + 4)..<(end + 4 + length)]))
  }

  /// A request with a body.
  static func post(
    _ path: String, body: [UInt8], headers: [(String, String)] = [], close: Bool = false
  ) -> [UInt8] {
    var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if close { head += "Connection: close\r\n" }
    return Array((head + "\r\n").utf8) + body
  }
}
