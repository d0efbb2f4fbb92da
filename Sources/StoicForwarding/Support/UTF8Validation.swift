/// Checks UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) and
/// makes the string, for the decoders' strings.
///
/// The standard library's `String(validating:as:)` does the same, but through generic code
/// that looks up type metadata on every call; on a log record with a dozen strings that was
/// the decoder's largest cost.
package enum UTF8Validation {
  /// The string `bytes` hold, or `nil` if they are not valid UTF-8.
  package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard isValid(bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `bytes` are valid UTF-8.
  package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var index = 0
    let count = bytes.count
    while index < count {
      // A run of ASCII, the common case, eight bytes at a time.
      while count - index >= 8,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & asciiMask == 0
      {
        index += 8
      }
      guard index < count else { break }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0  // no overlong three-byte forms
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F  // no surrogates
      case 0xF0:
        length = 4
        lower = 0x90  // no overlong four-byte forms
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F  // nothing above U+10FFFF
      default: return false
      }
      guard count - index >= length else { return false }
      let second = bytes[index + 1]
      guard second >= lower, second <= upper else { return false }
      for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }

  /// The high bit of each of eight bytes: a word of ASCII has none of them set.
  private static let asciiMask: UInt64 = 0x8080_8080_8080_8080
}
