import Foundation

/// The test binary started again as a child process, filtered to one test, for the tests that
/// need a process of their own (one to kill, to measure, or to run under another umask). The
/// test sees the environment variables it is given and does the child's part.
enum TestBinaryChild {
  /// A child process, not yet started, running the tests that `filter` selects.
  ///
  /// - Parameters:
  ///   - filter: The `--filter` of the child's test run.
  ///   - environment: Variables set (or, for nil, removed) in the child's environment.
  ///   - umask: When given (octal, `"077"`), the child runs under this umask (through
  ///     `sh -c 'umask …; exec …'`).
  ///   - standardError: Where the child's standard error goes; the null device by default.
  static func process(
    filter: String, environment: [String: String?], umask: String? = nil,
    standardError: Foundation.FileHandle? = nil
  ) throws -> Process {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let arguments = ["--testing-library", "swift-testing", "--filter", filter]
    let child = Process()
    if let umask {
      child.executableURL = URL(fileURLWithPath: "/bin/sh")
      child.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", executable] + arguments
    } else {
      child.executableURL = URL(fileURLWithPath: executable)
      child.arguments = arguments
    }
    var variables = ProcessInfo.processInfo.environment
    for (name, value) in environment { variables[name] = value }
    child.environment = variables
    child.standardOutput = Foundation.FileHandle.nullDevice
    child.standardError = standardError ?? Foundation.FileHandle.nullDevice
    return child
  }
}
