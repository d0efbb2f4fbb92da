import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of the package's executables (`stoic-agent`, `stoic-collector`, `stoic`) run as a real
/// child process, its output in files read on demand.
final class ChildProcess {
  let process = Process()
  let outputPath: String
  let errorPath: String

  /// The executable `swift build` put beside the test bundle.
  static func executable(_ name: String) -> URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(name)
  }

  /// Starts `name arguments…` with `environment` added to this process's.
  init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
    let base = NSTemporaryDirectory() + "stoic-e2e-\(name)-" + UUID().uuidString
    outputPath = base + ".out"
    errorPath = base + ".err"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    process.executableURL = Self.executable(name)
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    process.environment = merged
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(atPath: outputPath)
    try? FileManager.default.removeItem(atPath: errorPath)
  }

  var output: String {
    String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
  }

  var errors: String {
    String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
  }

  /// Sends `signal` and waits for the process to end; returns its status.
  @discardableResult
  func stop(_ signal: Int32 = SIGKILL) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Waits up to `seconds` for the process to end by itself; nil if it did not (it is then
  /// killed).
  func wait(seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    guard !process.isRunning else {
      stop()
      return nil
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Waits up to 20 s for a line of output containing `text`; the line, or nil.
  func waitForLine(containing text: String) -> String? {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let line = output.split(separator: "\n").first(where: { $0.contains(text) }) {
        return String(line)
      }
      guard process.isRunning else { return nil }
      usleep(10_000)
    }
    return nil
  }
}

/// The example collector as a child process.
final class CollectorProcess {
  let child: ChildProcess
  let port: UInt16

  /// Starts `stoic-collector --data directory --port port` with `options`, and waits until it
  /// listens.
  init(data directory: String, port: UInt16 = 0, _ options: [String] = []) throws {
    child = try ChildProcess(
      "stoic-collector", ["--data", directory, "--port", String(port)] + options)
    guard let line = child.waitForLine(containing: "listening on"),
      let number = line.split(separator: ":").last.flatMap({ UInt16($0) })
    else {
      throw EndToEndFailure("the collector did not start: \(child.errors)")
    }
    self.port = number
  }

  var endpoint: String { "http://127.0.0.1:\(port)" }
}

struct EndToEndFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
