/// Reads JSON (RFC 8259) from untrusted bytes as a stream of tokens, without building a tree
/// and without ever trapping.
///
/// A decoder walks the document with ``beginObject()`` / ``nextKey()``,
/// ``beginArray()`` / ``nextElement()`` and the scalar readers, and skips what it does not
/// know with ``skipValue()``, which checks the skipped value's syntax all the same. Nesting is
/// limited to ``maximumDepth``; strings must be valid UTF-8 with no raw control characters,
/// and `\u` escapes must pair their surrogates. Errors name an offset, never the bytes.
///
/// (Foundation's JSON scanner is not used on untrusted input: its JSON5 mode traps on invalid
/// UTF-8 in an unquoted key.)
package struct JSONReader {
  /// How deep objects and arrays may nest.
  package static let maximumDepth = 64

  private let bytes: [UInt8]
  /// The next byte to read.
  package private(set) var position = 0
  private var depth = 0
  /// Whether the container just opened has had an element (so the next needs a comma).
  private var hasElement = false

  /// A reader at the start of `bytes`.
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  // MARK: Containers

  /// Reads `{`.
  package mutating func beginObject() throws(ForwardingError) {
    try open(UInt8(ascii: "{"), "an object")
  }

  /// Reads `[`.
  package mutating func beginArray() throws(ForwardingError) {
    try open(UInt8(ascii: "["), "an array")
  }

  private mutating func open(_ bracket: UInt8, _ what: String) throws(ForwardingError) {
    guard try peek() == bracket else { throw error(.malformed, "expected \(what)") }
    guard depth < Self.maximumDepth else {
      throw error(.tooDeep, "JSON nests deeper than \(Self.maximumDepth)")
    }
    position += 1
    depth += 1
    hasElement = false
  }

  /// The next key of the object being read (its value comes next), or `nil` at its `}`.
  package mutating func nextKey() throws(ForwardingError) -> String? {
    guard try nextMember(closing: UInt8(ascii: "}")) else { return nil }
    guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a key") }
    let key = try readString()
    guard try peek() == UInt8(ascii: ":") else { throw error(.malformed, "expected ':'") }
    position += 1
    return key
  }

  /// Whether the array being read has another element (read it next), `false` at its `]`.
  package mutating func nextElement() throws(ForwardingError) -> Bool {
    try nextMember(closing: UInt8(ascii: "]"))
  }

  private mutating func nextMember(closing: UInt8) throws(ForwardingError) -> Bool {
    let next = try peek()
    if next == closing {
      position += 1
      depth -= 1
      hasElement = true  // the container itself is an element of its parent
      return false
    }
    if hasElement {
      guard next == UInt8(ascii: ",") else { throw error(.malformed, "expected ',' or a close") }
      position += 1
      guard try peek() != closing else { throw error(.malformed, "a trailing comma") }
    }
    hasElement = true
    return true
  }

  /// Reads the end of the document: only whitespace may follow the top-level value.
  package mutating func finish() throws(ForwardingError) {
    skipWhitespace()
    guard position == bytes.count else {
      throw error(.malformed, "data after the end of the JSON value")
    }
  }

  // MARK: Scalars

  /// Consumes a `null` if one comes next, and says whether it did.
  package mutating func readNull() throws(ForwardingError) -> Bool {
    guard try peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  /// Reads `true` or `false`.
  package mutating func readBool() throws(ForwardingError) -> Bool {
    switch try peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default:
      throw error(.malformed, "expected true or false")
    }
  }

  /// What the next value is, without reading it.
  package mutating func nextKind() throws(ForwardingError) -> Kind {
    switch try peek() {
    case UInt8(ascii: "{"): .object
    case UInt8(ascii: "["): .array
    case UInt8(ascii: "\""): .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
    case UInt8(ascii: "n"): .null
    default: .number
    }
  }

  /// The kinds of JSON value.
  package enum Kind {
    /// `{…}`.
    case object
    /// `[…]`.
    case array
    /// `"…"`.
    case string
    /// A number.
    case number
    /// `true`, `false`.
    case bool
    /// `null`.
    case null
  }

  /// Reads a number and returns its text, checked against JSON's number grammar.
  package mutating func readNumberText() throws(ForwardingError) -> String {
    _ = try peek()
    let start = position
    guard Self.scanNumber(bytes, from: &position) else {
      throw error(.malformed, "expected a number", at: start)
    }
    afterValue()
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// Whether all of `text` is a number in JSON's grammar (for numbers sent as strings).
  package static func isNumber(_ text: String) -> Bool {
    let utf8 = Array(text.utf8)
    var index = 0
    return scanNumber(utf8, from: &index) && index == utf8.count
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, advancing `index` past it.
  private static func scanNumber(_ bytes: [UInt8], from index: inout Int) -> Bool {
    func isDigit(_ at: Int) -> Bool {
      at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
    }
    var cursor = index
    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
    guard isDigit(cursor) else { return false }
    if bytes[cursor] == UInt8(ascii: "0") {
      cursor += 1
    } else {
      while isDigit(cursor) { cursor += 1 }
    }
    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
      cursor += 1
      guard isDigit(cursor) else { return false }
      while isDigit(cursor) { cursor += 1 }
    }
    if cursor < bytes.count,
      bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E")
    {
      cursor += 1
      if cursor < bytes.count,
        bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-")
      {
        cursor += 1
      }
      guard isDigit(cursor) else { return false }
      while isDigit(cursor) { cursor += 1 }
    }
    index = cursor
    return true
  }

  /// Reads a string: escapes resolved, UTF-8 checked.
  package mutating func readString() throws(ForwardingError) -> String {
    guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a string") }
    let start = position
    position += 1
    // The usual string has no escape: one scan finds its end, and whether it is all ASCII
    // (which needs no UTF-8 check); its bytes become the string as they are.
    let plain = bytes.withUnsafeBufferPointer { all in Self.scanPlain(all, from: start + 1) }
    if plain.end < bytes.count, bytes[plain.end] == UInt8(ascii: "\"") {
      let range = (start + 1)..<plain.end
      let result = bytes.withUnsafeBufferPointer { all in
        let utf8 = UnsafeBufferPointer(rebasing: all[range])
        return plain.ascii ? String(decoding: utf8, as: UTF8.self) : UTF8Validation.string(utf8)
      }
      position = plain.end + 1
      guard let result else {
        throw error(.invalidUTF8, "a string is not valid UTF-8", at: start)
      }
      afterValue()
      return result
    }
    var segment = position
    var decoded: [UInt8]? = nil  // only built when the string has escapes
    while true {
      guard position < bytes.count else {
        throw error(.truncated, "a string is never closed", at: start)
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 {
        throw error(.malformed, "a control character inside a string")
      }
      if byte == UInt8(ascii: "\\") {
        var buffer = decoded ?? []
        buffer.append(contentsOf: bytes[segment..<position])
        position += 1
        try readEscape(into: &buffer)
        decoded = buffer
        segment = position
        continue
      }
      position += 1
    }
    let result: String?
    if var buffer = decoded {
      buffer.append(contentsOf: bytes[segment..<position])
      result = buffer.withUnsafeBufferPointer { UTF8Validation.string($0) }
    } else {
      let range = segment..<position
      result = bytes.withUnsafeBufferPointer { all in
        UTF8Validation.string(UnsafeBufferPointer(rebasing: all[range]))
      }
    }
    position += 1
    guard let result else { throw error(.invalidUTF8, "a string is not valid UTF-8", at: start) }
    afterValue()
    return result
  }

  /// The offset of the first byte from `index` that ends a plain run of string content (a
  /// quote, a backslash, a control character, or the end), and whether the run is all ASCII.
  @inline(__always)
  private static func scanPlain(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> (
    end: Int, ascii: Bool
  ) {
    var cursor = index
    var high: UInt8 = 0
    let count = bytes.count
    while cursor < count {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      high |= byte
      cursor += 1
    }
    return (cursor, high < 0x80)
  }

  private mutating func readEscape(into buffer: inout [UInt8]) throws(ForwardingError) {
    guard position < bytes.count else { throw error(.truncated, "an escape is cut short") }
    let escape = bytes[position]
    position += 1
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      if scalar >= 0xD800, scalar < 0xDC00 {
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw error(.malformed, "a high surrogate without its low half") }
        position += 2
        let low = try hex4()
        guard low >= 0xDC00, low < 0xE000 else {
          throw error(.malformed, "a high surrogate without its low half")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if scalar >= 0xDC00, scalar < 0xE000 {
        throw error(.malformed, "a low surrogate without its high half")
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw error(.malformed, "an escape that is not a character")
      }
      buffer.append(contentsOf: UTF8.encode(unicode) ?? UTF8.EncodedScalar())
    default:
      throw error(.malformed, "an unknown escape")
    }
  }

  private mutating func hex4() throws(ForwardingError) -> UInt32 {
    guard bytes.count - position >= 4 else { throw error(.truncated, "a \\u escape is cut short") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error(.malformed, "a \\u escape with a non-hex digit")
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  // MARK: Bytes instead of strings (for transcoders)

  /// Like ``nextKey()``, but hands the key's UTF-8 bytes to `match` instead of building a
  /// `String`, and returns what `match` returns (`nil` at the object's `}`). A key with no
  /// escape, all ASCII (the usual key), is handed over as it lies in the input; any other is
  /// read as ``nextKey()`` reads it, so the same keys are refused with the same errors.
  package mutating func nextKey<Key>(matching match: (UnsafeBufferPointer<UInt8>) -> Key)
    throws(ForwardingError) -> Key?
  {
    guard try nextMember(closing: UInt8(ascii: "}")) else { return nil }
    guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a key") }
    let start = position + 1
    let plain = bytes.withUnsafeBufferPointer { all in Self.scanPlain(all, from: start) }
    let key: Key
    if plain.ascii, plain.end < bytes.count, bytes[plain.end] == UInt8(ascii: "\"") {
      key = bytes.withUnsafeBufferPointer { all in
        match(UnsafeBufferPointer(rebasing: all[start..<plain.end]))
      }
      position = plain.end + 1
      afterValue()
    } else {
      var text = try readString()
      key = text.withUTF8 { match($0) }
    }
    guard try peek() == UInt8(ascii: ":") else { throw error(.malformed, "expected ':'") }
    position += 1
    return key
  }

  /// Like ``readString()``, but hands the string's UTF-8 bytes (escapes resolved, checked) to
  /// `body` instead of returning a `String`, and returns what `body` returns. A string with no
  /// escape is handed over as it lies in the input (after the same UTF-8 check); any other is
  /// read by ``readString()``, so the same strings are refused with the same errors.
  package mutating func readString<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result)
    throws(ForwardingError) -> Result
  {
    guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a string") }
    let start = position + 1
    let plain = bytes.withUnsafeBufferPointer { all in Self.scanPlain(all, from: start) }
    guard plain.end < bytes.count, bytes[plain.end] == UInt8(ascii: "\"") else {
      var text = try readString()
      return text.withUTF8 { body($0) }
    }
    let result: Result? = bytes.withUnsafeBufferPointer { all in
      let utf8 = UnsafeBufferPointer(rebasing: all[start..<plain.end])
      return plain.ascii || UTF8Validation.isValid(utf8) ? body(utf8) : nil
    }
    guard let result else {
      throw error(.invalidUTF8, "a string is not valid UTF-8", at: start - 1)
    }
    position = plain.end + 1
    afterValue()
    return result
  }

  /// Offers the input from the next value on to `match`, for a caller that recognises a
  /// whole value of a known, common shape in one pass: `match` gets the bytes and the offset
  /// of the value and returns where the value ends, or `nil` to decline (then nothing is
  /// consumed, and the value is read the general way). `match` must check everything the
  /// readers would (UTF-8 included) and accept only a value that nests no more than
  /// `nesting` levels, which is checked against ``maximumDepth`` here.
  package mutating func readValue(
    nesting: Int, matching match: (UnsafeBufferPointer<UInt8>, Int) -> Int?
  ) throws(ForwardingError) -> Bool {
    _ = try peek()
    guard depth + nesting <= Self.maximumDepth else { return false }
    let start = position
    guard let end = bytes.withUnsafeBufferPointer({ match($0, start) }) else { return false }
    position = end
    afterValue()
    return true
  }

  /// Reads an unsigned integer written plainly, as a bare number of digits or a string of
  /// only digits (`1700000000000000000`, `"1700000000000000000"`), no greater than `maximum`;
  /// for anything else (a sign, a fraction, an exponent, an escape, a greater value, not a
  /// number or string at all) returns `nil` and consumes nothing, for the caller to read the
  /// value the general way. What it reads, `UInt64(text)` of the value's text reads the same.
  package mutating func readPlainUnsigned(atMost maximum: UInt64) throws(ForwardingError)
    -> UInt64?
  {
    let first = try peek()
    let quoted = first == UInt8(ascii: "\"")
    // A bare number ends where JSON's grammar ends it; it must be digits only up to there.
    var end = position
    guard quoted || Self.scanNumber(bytes, from: &end) else { return nil }
    var cursor = quoted ? position + 1 : position
    var value: UInt64 = 0
    let digitsStart = cursor
    while cursor < bytes.count {
      let digit = bytes[cursor] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      value = sum
      cursor += 1
    }
    guard cursor > digitsStart, value <= maximum else { return nil }
    if quoted {
      guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
      cursor += 1
    } else {
      guard end == cursor else { return nil }
    }
    position = cursor
    afterValue()
    return value
  }

  // MARK: Skipping

  /// Skips one value of any kind, checking its syntax and nesting as if it were read.
  package mutating func skipValue() throws(ForwardingError) {
    switch try nextKind() {
    case .object:
      try beginObject()
      while try nextKey() != nil { try skipValue() }
    case .array:
      try beginArray()
      while try nextElement() { try skipValue() }
    case .string: _ = try readString()
    case .number: _ = try readNumberText()
    case .bool: _ = try readBool()
    case .null: _ = try readNull()
    }
  }

  // MARK: Bytes

  /// The next byte after whitespace, without consuming it.
  private mutating func peek() throws(ForwardingError) -> UInt8 {
    skipWhitespace()
    guard position < bytes.count else { throw error(.truncated, "the JSON ends early") }
    return bytes[position]
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func literal(_ word: StaticString) throws(ForwardingError) {
    let count = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { expected in
      bytes.count - position >= count
        && bytes[position..<(position + count)].elementsEqual(expected)
    }
    guard matches else { throw error(.malformed, "expected \(word)") }
    position += count
    afterValue()
  }

  /// A scalar was read: it is its container's element.
  private mutating func afterValue() {
    hasElement = true
  }

  /// An error at the current position (or `at`).
  package func error(_ code: ForwardingError.Code, _ message: String, at offset: Int? = nil)
    -> ForwardingError
  {
    ForwardingError(code, message, offset: offset ?? position)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes are the UTF-8 of `name`: a JSON key compared without making a
  /// `String`, as the fast readers do.
  @inline(__always)
  package func isKey(_ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    guard self.count == count else { return false }
    let expected = name.utf8Start
    for index in 0..<count where self[index] != expected[index] { return false }
    return true
  }
}
