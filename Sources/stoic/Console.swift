#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output for people: standard output for results, standard error for problems.
enum Console {
  static func line(_ text: String = "") {
    print(text)
  }

  static func error(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }
}
