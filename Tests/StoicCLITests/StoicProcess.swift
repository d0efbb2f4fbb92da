import Foundation
import Testing

/// The `stoic` executable, run as a real child process.
enum StoicProcess {
  /// What a run printed and how it ended.
  struct Outcome: CustomStringConvertible {
    var status: Int32
    var output: String
    var error: String

    var description: String { "exit \(status)\nstdout:\n\(output)\nstderr:\n\(error)" }

    /// The JSON document the run printed (`--json`).
    func document() throws -> [String: Any] {
      let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8))
      return try #require(parsed as? [String: Any], "\(self)")
    }
  }

  /// The `stoic` executable `swift build` put beside the test bundle.
  static let executable: URL = {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("stoic").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("stoic")
  }()

  /// The user `run(_:unprivileged:)` drops to when the tests run as root: `nobody`.
  static let unprivilegedUser: UInt32 = 65_534

  /// Runs `stoic arguments…` with `environment` added to this process's, and waits for it.
  /// Its output and errors go to files (a pipe left unread could stall it), read at the end.
  /// `unprivileged`: when the tests run as root, the child runs as `nobody` (through
  /// `setpriv(1)`, all groups dropped), so permissions hold for it.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], unprivileged: Bool = false
  ) throws -> Outcome {
    let base = NSTemporaryDirectory() + "stoic-cli-output-" + UUID().uuidString
    let outPath = base + ".out"
    let errPath = base + ".err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: outPath)
      try? FileManager.default.removeItem(atPath: errPath)
    }
    let process = Process()
    if unprivileged && getuid() == 0 {
      let user = unprivilegedUser
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", executable.path] + arguments
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    process.environment = merged
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    defer {
      try? output.close()
      try? error.close()
    }
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus,
      output: String(
        decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
      error: String(
        decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
  }

  /// A fresh directory under the temporary directory, removed by `body`'s end.
  static func withScratch<Result>(_ body: (String) throws -> Result) throws -> Result {
    let path = NSTemporaryDirectory() + "stoic-cli-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  /// ``withScratch(_:)`` for an async body.
  static func withAsyncScratch<Result>(_ body: (String) async throws -> Result) async throws
    -> Result
  {
    let path = NSTemporaryDirectory() + "stoic-cli-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
  }
}
