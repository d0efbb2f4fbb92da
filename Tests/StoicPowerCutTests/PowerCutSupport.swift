import Foundation
import StoicPowerCut

/// Helpers of the power-cut tests.
enum PowerCutSupport {
  /// The `stoic-powercut-workload` program next to the test bundle in the build directory.
  static var executable: String {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    let name = "stoic-powercut-workload"
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(name).path
  }

  /// The package's folder, three levels above this file.
  static var packagePath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  /// Runs blocking work (processes, sleeps, mounts) on a thread of its own, off the pool that
  /// runs the other tests.
  static func onOwnThread<Result: Sendable>(
    _ body: @escaping @Sendable () throws -> Result
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
      thread.start()
    }
  }

  /// A fresh folder under `/tmp`, removed after `body`.
  static func withScratchDirectory<Result>(_ body: (String) async throws -> Result) async throws
    -> Result
  {
    let path = NSTemporaryDirectory() + "stoic-powercut-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
  }
}
