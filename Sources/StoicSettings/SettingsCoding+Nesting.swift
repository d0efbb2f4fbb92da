extension SettingsCoding {
  /// The deepest nesting of arrays and objects a settings document may have. Settings are
  /// shallow; the limit keeps the recursive decoding of a hostile file far from the end of a
  /// thread's stack (512 KiB on Apple platforms' secondary threads).
  static let maxNesting = 64

  /// Whether the JSON text nests arrays and objects deeper than `limit`, found by a scan that
  /// skips strings (and, for JSON5, single-quoted strings and comments) without parsing.
  static func nestsDeeper(than limit: Int, _ bytes: [UInt8], json5: Bool) -> Bool {
    var depth = 0
    var index = 0
    var quote: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if let open = quote {
        if byte == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || (json5 && byte == UInt8(ascii: "'")) {
        quote = byte
      } else if json5 && byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else if json5 && byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
        index += 2
        while index < bytes.count
          && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
            && bytes[index + 1] == UInt8(ascii: "/"))
        {
          index += 1
        }
        index += 1
      } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
        depth += 1
        if depth > limit { return true }
      } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
        depth = max(0, depth - 1)
      }
      index += 1
    }
    return false
  }
}
