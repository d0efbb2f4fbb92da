#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the agent writes: straight to the descriptor, so a line shows before an exit or a
/// kill.
enum AgentOutput {
  /// Writes `stoic-agent: message` to standard error.
  static func error(_ message: String) {
    put(STDERR_FILENO, "stoic-agent: \(message)\n")
  }

  /// Writes a line to standard output.
  static func line(_ message: String) {
    put(STDOUT_FILENO, message + "\n")
  }

  private static func put(_ descriptor: Int32, _ text: String) {
    _ = text.withCString { write(descriptor, $0, strlen($0)) }
  }
}
