#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment variables that set how hard the explorations and property tests look,
/// read without Foundation.
enum TestEnvironment {
  /// The value of an environment variable.
  static func value(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  /// A positive integer, or `nil` if the variable is unset or does not parse as one.
  static func positiveInteger(_ name: String) -> Int? {
    guard let text = value(name), let number = Int(text), number > 0 else { return nil }
    return number
  }

  /// A seed, decimal or `0x` hexadecimal, or `nil` if the variable is unset or does not parse.
  static func seed(_ name: String) -> UInt64? {
    guard let text = value(name) else { return nil }
    return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text, radix: 10)
  }
}
