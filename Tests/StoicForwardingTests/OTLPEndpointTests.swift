import StoicForwarding
import Testing

/// An endpoint is checked in full where it is configured: what can never work is refused with
/// a typed error that never holds the URL; a base endpoint's query survives the signal's path.
@Suite("OTLPEndpoint")
struct OTLPEndpointTests {
  static let secret = "s3cr3t-t0ken"

  struct Accepted: Sendable, CustomTestStringConvertible {
    var url: String
    var host: String
    var port: UInt16
    var target: String
    var testDescription: String { url }
  }

  @Test(
    "usable endpoints: host, port, path and query as a request needs them",
    arguments: [
      Accepted(url: "http://collector", host: "collector", port: 80, target: "/"),
      Accepted(url: "HTTP://Collector:4318/", host: "Collector", port: 4318, target: "/"),
      Accepted(
        url: "https://otel.example.com/p?q=1", host: "otel.example.com", port: 443, target: "/p?q=1"
      ),
      Accepted(
        url: "http://127.0.0.1:4318/v1/logs", host: "127.0.0.1", port: 4318, target: "/v1/logs"),
      Accepted(url: "http://[::1]:4318?tenant=1", host: "::1", port: 4318, target: "/?tenant=1"),
      Accepted(url: "http://h:65535", host: "h", port: 65535, target: "/"),
    ])
  func accepted(_ row: Accepted) throws {
    let endpoint = try OTLPEndpoint(row.url)
    #expect(endpoint.host == row.host)
    #expect(endpoint.effectivePort == row.port)
    #expect(endpoint.requestTarget == row.target)
  }

  @Test(
    "endpoints that can never work are refused, naming what is wrong and never the URL",
    arguments: [
      "http://user:\(secret)@h:4318", "http://\(secret)@h", "http://h:0", "http://h:65536",
      "http://h:", "http://h:4318#\(secret)", "http://h:4318/a b\(secret)",
      "http://h:4318/\(secret)\r\nX: 1", "http://h:\u{FF14}\u{FF13}18",
      "http://[::1:4318/\(secret)",
      "http://[::1]x:4318", "http://[\(secret)]:4318", "ftp://\(secret)", "http://", "http://:4318",
      "not a url \(secret)", "http://h\u{1B}x", "http://h:43a8", "http://h:-1",
      "http://h\u{00E9}:4318",
    ])
  func refused(_ url: String) {
    #expect {
      try OTLPEndpoint(url)
    } throws: { error in
      guard let error = error as? ForwardingError else { return false }
      return error.code == .invalidArgument && !"\(error)".contains(Self.secret)
        && error.message.hasPrefix("the endpoint ")
    }
  }

  @Test("a base endpoint's path gets the signal's path, its query is kept")
  func signalPathKeepsTheQuery() throws {
    let cases: [(String, String)] = [
      ("http://h:4318?tenant=1", "http://h:4318/v1/logs?tenant=1"),
      ("http://h:4318/base/?tenant=1&x=2", "http://h:4318/base/v1/logs?tenant=1&x=2"),
      ("http://h:4318", "http://h:4318/v1/logs"),
      ("http://h:4318//", "http://h:4318/v1/logs"),
      ("https://[::1]:4318/p", "https://[::1]:4318/p/v1/logs"),
    ]
    for (base, logs) in cases {
      let configuration = OTLPExporterConfiguration(endpoint: base)
      #expect(configuration.url(for: .logs) == logs)
      #expect(
        configuration.url(for: .metrics) == logs.replacingOccurrences(of: "logs", with: "metrics"))
      try configuration.validate()
    }
  }

  @Test("the environment's endpoint is checked the same way: the variable named, the value not")
  func fromTheEnvironment() {
    for url in ["http://user:\(Self.secret)@h:4318", "http://h:0", "http://h:4318#\(Self.secret)"] {
      #expect {
        try OTelEnvironment(["OTEL_EXPORTER_OTLP_ENDPOINT": url])
      } throws: { error in
        guard let error = error as? ForwardingError else { return false }
        return error.variable == "OTEL_EXPORTER_OTLP_ENDPOINT" && !"\(error)".contains(Self.secret)
      }
    }
  }
}
