import Foundation
import StoicForwarding
import Testing

@testable import StoicCollector

/// The `stoic-collector` executable run as a real child process on 127.0.0.1 with an
/// ephemeral port, for the tests. Every wait is bounded; `deinit` kills a child still running.
final class CollectorProcess {
  let process = Process()
  let output = Pipe()
  let errors = Pipe()
  private(set) var port: UInt16 = 0
  private(set) var stdout = ""
  let dataDirectory: String

  /// The executable next to the test bundle in the build directory.
  static var executable: URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    while !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("stoic-collector").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("stoic-collector")
  }

  /// Starts the collector on `dataDirectory` with `arguments` and waits (up to 20 s) for its
  /// `listening on 127.0.0.1:PORT` line.
  init(
    dataDirectory: String, arguments: [String] = [], environment: [String: String] = [:],
    waitForListening: Bool = true
  ) throws {
    self.dataDirectory = dataDirectory
    process.executableURL = Self.executable
    process.arguments = ["--data", dataDirectory] + arguments
    var inherited = ProcessInfo.processInfo.environment
    inherited.removeValue(forKey: CollectorOptions.tokenEnvironmentVariable)
    process.environment = inherited.merging(environment) { $1 }
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    guard waitForListening else { return }
    let line = try #require(readLine(prefix: "listening on ", timeout: .seconds(20)))
    let portText = try #require(line.split(separator: ":").last)
    port = try #require(UInt16(portText))
    #expect(line == "listening on 127.0.0.1:\(port)")
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Reads standard output until a line starting with `prefix` arrives; `nil` on timeout or
  /// end of output.
  func readLine(prefix: String, timeout: Duration) -> String? {
    let deadline = ContinuousClock.now + timeout
    let descriptor = output.fileHandleForReading.fileDescriptor
    while ContinuousClock.now < deadline {
      if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
        return String(line)
      }
      guard PosixSocket.waitReadable(descriptor, milliseconds: 100) else { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(descriptor, &chunk, chunk.count)
      if count <= 0 { return nil }
      stdout += String(decoding: chunk.prefix(count), as: UTF8.self)
    }
    return nil
  }

  /// Sends SIGTERM and waits (up to 20 s) for the exit; returns the exit status.
  @discardableResult
  func terminate() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    return waitForExit()
  }

  /// Sends SIGKILL and waits for the exit.
  func killHard() {
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit()
  }

  /// Waits (up to 20 s) for the process to exit; its status, or -1 if it did not.
  func waitForExit(timeout: Duration = .seconds(20)) -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    guard !process.isRunning else {
      Issue.record("stoic-collector did not exit in time")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return -1
    }
    process.waitUntilExit()
    stdout += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return process.terminationStatus
  }

  /// Everything the process wrote to standard error (after it exited).
  var standardError: String {
    String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// `GET /stats`, parsed.
  func stats() throws -> [String: Any] {
    let response = try RawHTTP.exchange(
      port: port, Array("GET /stats HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(response.status == 200)
    return try #require(
      JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
  }

  /// A fresh scratch directory, removed by the caller.
  static func scratchDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "stoic-collector-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
