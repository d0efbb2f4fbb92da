#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A broken invariant stops the process with a message, which libFuzzer reports as a crash
/// and keeps the input for (`crash-<sha1>`): a finding is a reproducer, whatever kind it is.
enum FuzzCheck {
  /// Stops the process unless `condition` holds.
  static func require(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    guard !condition else { return }
    fail(message(), file: file, line: line)
  }

  /// Stops the process: an invariant is broken.
  static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = "stoic-fuzz: invariant broken at \(file):\(line): \(message)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
  }
}
