#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// With `STOIC_FUZZ_VERBOSE=1` (for replaying a reproducer), what a target does, step by step,
/// on standard error.
enum FuzzLog {
  static let enabled: Bool =
    getenv("STOIC_FUZZ_VERBOSE").map { String(cString: $0) == "1" } ?? false

  static func note(_ message: @autoclosure () -> String) {
    guard enabled else { return }
    let text = "stoic-fuzz: \(message())\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
  }
}
