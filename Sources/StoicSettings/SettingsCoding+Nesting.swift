extension SettingsCoding {
  /// The deepest nesting of arrays and objects a settings document may have. Settings are
  /// shallow; the limit keeps the recursive decoding of a hostile file far from the end of a
  /// thread's stack (512 KiB on Apple platforms' secondary threads).
  static let maxNesting = 64

  /// Whether the JSON text nests arrays and objects deeper than `limit`, as the parser would
  /// see it (see ``scan(_:json5:stoppingAbove:)``).
  static func nestsDeeper(than limit: Int, _ bytes: [UInt8], json5: Bool) -> Bool {
    nestingDepth(of: bytes, json5: json5, stoppingAbove: limit) > limit
  }

  /// The deepest nesting of arrays and objects the parser recurses into on `bytes` (see
  /// ``scan(_:json5:stoppingAbove:)``).
  static func nestingDepth(of bytes: [UInt8], json5: Bool, stoppingAbove limit: Int = .max)
    -> Int
  {
    scan(bytes, json5: json5, stoppingAbove: limit).deepest
  }

  /// What a walk over JSON text by the parser's own lexical rules finds, before the parser
  /// sees the text.
  struct TextScan: Equatable {
    /// The deepest nesting of arrays and objects the parser recurses into (the walk stops
    /// once it passes the limit it was given).
    var deepest = 0
    /// The first byte that is neither whitespace nor in a comment (`nil` if there is none).
    var firstByte: UInt8?
    /// The first number the decoder cannot be trusted with (see ``isSafeNumber(_:)``), where
    /// it is.
    var unsafeNumber: Range<Int>?

    /// The text is a number (or starts with one) rather than an object or an array: the
    /// decoder reads past the end of a number that is the whole text.
    var startsWithNumber: Bool {
      guard let firstByte else { return false }
      return Byte.startsNumber(firstByte) || firstByte == UInt8(ascii: "I")
        || firstByte == UInt8(ascii: "N")
    }
  }

  /// Walks JSON text (JSON5 when `json5` is on) by the rules of FoundationEssentials'
  /// `JSONScanner` (or `JSON5Scanner`), without parsing and without recursion.
  ///
  /// What is not structure is skipped byte for byte as the scanner skips it:
  /// - a string starts at `"` (and, in JSON5, at `'`) and ends at the same unescaped quote; a
  ///   backslash escapes the next byte, whatever it is; `\u` is followed by four more bytes
  ///   and, in JSON5, `\x` by two, skipped whole (the scanner refuses them if one is the
  ///   closing quote, so the walk ends there);
  /// - in JSON5, `//` starts a comment that ends after the first `\n` or `\r`, and `/*` one
  ///   that ends after the first `*/` (an unterminated one is an error: the walk ends).
  ///
  /// Every other `[` or `{` opens a level and `]` or `}` closes one. Where the scanner throws
  /// (a string or comment left open, a bad escape), it recurses no further, so the walk ends
  /// too. So on any input ``TextScan/deepest`` is at least the depth the parser reaches before
  /// it succeeds or fails, and for a document the parser accepts it is that depth exactly.
  ///
  /// A number is the scanner's token: a byte among `-+0123456789.` (or `I` or `N` where a
  /// value goes, not a key) and the letters, digits and `.+-` after it.
  static func scan(_ bytes: [UInt8], json5: Bool, stoppingAbove limit: Int = .max) -> TextScan {
    var result = TextScan()
    var depth = 0
    // A UTF-8 byte order mark is skipped, as the decoder skips it.
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    let count = bytes.count
    /// A word starting with `I` or `N`: a key if `:` comes next, else `Infinity` or `NaN`.
    var pendingWord: Range<Int>?
    while index < count {
      let byte = bytes[index]
      let opensComment =
        json5 && byte == Byte.slash && index + 1 < count
        && (bytes[index + 1] == Byte.slash || bytes[index + 1] == Byte.asterisk)
      if Byte.isWhitespace(byte) || opensComment {
        guard let end = endOfTrivia(bytes, at: index) else { break }
        index = end
        continue
      }
      if result.firstByte == nil { result.firstByte = byte }
      if let word = pendingWord, byte != Byte.colon, !isSpecialNumber(bytes[word]) {
        result.unsafeNumber = result.unsafeNumber ?? word
      }
      pendingWord = nil
      if byte == Byte.doubleQuote || (json5 && byte == Byte.singleQuote) {
        guard let end = endOfString(bytes, quotedAt: index, json5: json5) else { break }
        index = end
        continue
      }
      if Byte.isWord(byte) {
        var end = index + 1
        while end < count, Byte.isWord(bytes[end]) { end += 1 }
        if Byte.startsNumber(byte) {
          var token = index + 1
          while token < count, Byte.isNumber(bytes[token]) { token += 1 }
          if !isSafeNumber(bytes[index..<token]) {
            result.unsafeNumber = result.unsafeNumber ?? index..<token
          }
        } else if byte == UInt8(ascii: "I") || byte == UInt8(ascii: "N") {
          pendingWord = index..<end
        }
        index = end
        continue
      }
      if byte == Byte.openBracket || byte == Byte.openBrace {
        depth += 1
        result.deepest = max(result.deepest, depth)
        if depth > limit { return result }
      } else if byte == Byte.closeBracket || byte == Byte.closeBrace {
        depth = max(0, depth - 1)
      }
      index += 1
    }
    if let word = pendingWord, !isSpecialNumber(bytes[word]) {
      result.unsafeNumber = result.unsafeNumber ?? word
    }
    return result
  }

  /// The index after the whitespace or comment at `start`, or `nil` where the scanner throws
  /// (an unterminated block comment).
  private static func endOfTrivia(_ bytes: [UInt8], at start: Int) -> Int? {
    let count = bytes.count
    guard bytes[start] == Byte.slash else { return start + 1 }
    var index = start + 2
    if bytes[start + 1] == Byte.slash {
      while index < count, bytes[index] != Byte.newline, bytes[index] != Byte.carriageReturn {
        index += 1
      }
      return min(index + 1, count)
    }
    while index + 1 < count, !(bytes[index] == Byte.asterisk && bytes[index + 1] == Byte.slash) {
      index += 1
    }
    return index + 1 < count ? index + 2 : nil
  }

  /// The index just after the string whose opening quote is at `start`, or `nil` where the
  /// scanner throws (the input ends inside it, or a `\u` or `\x` escape runs into the quote).
  private static func endOfString(_ bytes: [UInt8], quotedAt start: Int, json5: Bool) -> Int? {
    let quote = bytes[start]
    var index = start + 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote { return index + 1 }
      guard byte == Byte.backslash else {
        index += 1
        continue
      }
      guard index + 1 < bytes.count else { return nil }
      let escaped = bytes[index + 1]
      index += 2
      let digits = escaped == Byte.u ? 4 : (json5 && escaped == Byte.x ? 2 : 0)
      guard index + digits <= bytes.count, !bytes[index..<(index + digits)].contains(quote)
      else { return nil }
      index += digits
    }
    return nil
  }

  /// Whether the decoder reads `token` (a number as the scanner delimits it) without
  /// trapping. FoundationEssentials' JSON5 number parsing stops the process on some tokens it
  /// cannot parse (`0x5E-2`, `0x0x`, a hexadecimal number beyond 64 bits), so only these
  /// pass, an optional sign first: a decimal number as JSON writes it (a leading `.` or a
  /// trailing one allowed, as JSON5 does), a hexadecimal one of 1 to 15 digits (within 64
  /// bits whatever its sign), `Infinity` and `NaN`.
  static func isSafeNumber(_ token: ArraySlice<UInt8>) -> Bool {
    var rest = token
    if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      rest = rest.dropFirst()
    }
    if isSpecialNumber(rest) { return true }
    if rest.starts(with: [UInt8(ascii: "0"), UInt8(ascii: "x")])
      || rest.starts(with: [UInt8(ascii: "0"), UInt8(ascii: "X")])
    {
      let digits = rest.dropFirst(2)
      return (1...15).contains(digits.count) && digits.allSatisfy(Byte.isHexDigit)
    }
    // Whole part: 0, or a digit 1-9 and more digits; fraction: `.` and digits; exponent:
    // `e` or `E`, a sign, digits.
    let whole = rest.prefix { Byte.isDigit($0) }
    guard whole.count <= 1 || whole.first != UInt8(ascii: "0") else { return false }
    rest = rest.dropFirst(whole.count)
    var fraction = 0
    if rest.first == UInt8(ascii: ".") {
      rest = rest.dropFirst()
      fraction = rest.prefix { Byte.isDigit($0) }.count
      rest = rest.dropFirst(fraction)
    }
    guard whole.count + fraction > 0 else { return false }
    if let exponent = rest.first, exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
      rest = rest.dropFirst()
      if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
        rest = rest.dropFirst()
      }
      let digits = rest.prefix { Byte.isDigit($0) }.count
      guard digits > 0 else { return false }
      rest = rest.dropFirst(digits)
    }
    return rest.isEmpty
  }

  /// `Infinity` or `NaN`, JSON5's two numbers that are words.
  private static func isSpecialNumber(_ word: ArraySlice<UInt8>) -> Bool {
    word.elementsEqual("Infinity".utf8) || word.elementsEqual("NaN".utf8)
  }

  /// The bytes and classes of bytes the walk looks for.
  private enum Byte {
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let asterisk = UInt8(ascii: "*")
    static let colon = UInt8(ascii: ":")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let u = UInt8(ascii: "u")
    static let x = UInt8(ascii: "x")

    /// Space, tab, line feed, carriage return, and (JSON5's) vertical tab and form feed.
    static func isWhitespace(_ byte: UInt8) -> Bool {
      byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    static func isLetter(_ byte: UInt8) -> Bool {
      (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
      isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// A byte the scanner takes into a number after its first: letters, digits, `.+-`.
    static func isNumber(_ byte: UInt8) -> Bool {
      isDigit(byte) || isLetter(byte) || byte == 0x2E || byte == 0x2B || byte == 0x2D
    }

    /// A byte that starts a number where a value goes (`I` and `N` are handled apart).
    static func startsNumber(_ byte: UInt8) -> Bool {
      isDigit(byte) || byte == 0x2E || byte == 0x2B || byte == 0x2D
    }

    /// A byte of a word: a number, a literal, or an unquoted key (with its escapes and its
    /// non-ASCII letters).
    static func isWord(_ byte: UInt8) -> Bool {
      isNumber(byte) || byte == 0x5F || byte == 0x24 || byte == backslash || byte >= 0x80
    }
  }

  /// The offset of the first byte that is not part of well-formed UTF-8 (an invalid byte, a
  /// truncated or overlong sequence, a surrogate, a value above U+10FFFF), or `nil` if all of
  /// `bytes` is UTF-8 text. FoundationEssentials' JSON5 scanner traps on such bytes in an
  /// unquoted key, so no text reaches the decoder before this says it is clean.
  static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
