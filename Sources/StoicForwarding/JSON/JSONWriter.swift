/// Writes JSON into one growing byte buffer, by hand: no `JSONEncoder`, no intermediate tree,
/// no `String` per number.
///
/// Commas are placed by the writer: every value, key or container start that follows a value
/// in the same container is preceded by one.
package struct JSONWriter: ~Copyable {
  /// The bytes written so far.
  package var bytes: ByteBuffer
  private var needsComma = false

  /// A writer with an empty buffer with room for `capacity` bytes before it grows.
  package init(capacity: Int = 4096) {
    bytes = ByteBuffer(capacity: capacity)
  }

  /// Runs `body` with a fresh writer and appends what it wrote to `buffer` (one copy).
  package static func append(to buffer: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
    var writer = JSONWriter(capacity: max(buffer.capacity - buffer.count, 4096))
    body(&writer)
    writer.bytes.copy(appendingTo: &buffer)
  }

  // MARK: Structure

  /// `{`, then `body`, then `}`.
  @inline(__always)
  package mutating func object(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// `[`, then `body`, then `]`.
  @inline(__always)
  package mutating func array(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// `"name":` (the name is written as is: field names are plain ASCII).
  @inline(__always)
  package mutating func key(_ name: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append($0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// `"name":` for a name known only at run time (escaped as a string is).
  package mutating func dynamicKey(_ name: String) {
    string(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  @inline(__always)
  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  // MARK: Values

  /// A string, quoted and escaped (RFC 8259: quote, backslash and control characters).
  package mutating func string(_ value: String) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    let handled: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
      appendEscaped(utf8)
    }
    if handled == nil {
      var copy = value
      copy.makeContiguousUTF8()
      copy.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// A string given as its UTF-8 (already valid: a spooled record's checked field), quoted
  /// and escaped as ``string(_:)`` writes it, without making a `String`.
  package mutating func string(utf8: UnsafeRawBufferPointer) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    appendEscaped(utf8.assumingMemoryBound(to: UInt8.self))
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var clean = utf8.startIndex
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      bytes.append(UnsafeBufferPointer(rebasing: utf8[clean..<index]))
      clean = index + 1
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      default:
        bytes.append(UInt8(ascii: "u"))
        bytes.append(repeating: UInt8(ascii: "0"), count: 2)
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0xF)])
      }
    }
    bytes.append(UnsafeBufferPointer(rebasing: utf8[clean...]))
  }

  /// `true` or `false`.
  package mutating func bool(_ value: Bool) {
    separate()
    let literal: StaticString = value ? "true" : "false"
    literal.withUTF8Buffer { bytes.append($0) }
    needsComma = true
  }

  /// An unsigned integer as a bare number (for 32-bit fields and enums).
  package mutating func number(_ value: UInt64) {
    separate()
    appendDecimal(value)
    needsComma = true
  }

  /// A signed integer as a bare number (for 32-bit fields and enums).
  package mutating func number(_ value: Int64) {
    separate()
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDecimal(value.magnitude)
    needsComma = true
  }

  /// A 64-bit unsigned integer as a decimal string, as proto3's JSON mapping writes them.
  package mutating func quoted(_ value: UInt64) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    appendDecimal(value)
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// A 64-bit signed integer as a decimal string.
  package mutating func quoted(_ value: Int64) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDecimal(value.magnitude)
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// A double: a number (the shortest that reads back to the same value), or the strings
  /// `"NaN"`, `"Infinity"`, `"-Infinity"` that proto3's JSON mapping uses for the rest.
  package mutating func double(_ value: Double) {
    if value.isNaN {
      string("NaN")
    } else if value.isInfinite {
      string(value < 0 ? "-Infinity" : "Infinity")
    } else {
      separate()
      bytes.append(value.description)
      needsComma = true
    }
  }

  /// Bytes as a quoted hex string (OTLP's `traceId` and `spanId`).
  package mutating func hex(_ value: [UInt8]) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    for byte in value {
      bytes.append(Self.hexDigits[Int(byte >> 4)])
      bytes.append(Self.hexDigits[Int(byte & 0xF)])
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// Bytes as a quoted base64 string (standard alphabet, padded), as proto3 writes `bytes`.
  package mutating func base64(_ value: [UInt8]) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    Base64.encode(value, into: &bytes)
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  private mutating func appendDecimal(_ value: UInt64) {
    var digits = 1
    var scan = value
    while scan >= 10 {
      scan /= 10
      digits += 1
    }
    let start = bytes.count
    bytes.append(repeating: UInt8(ascii: "0"), count: digits)
    var rest = value
    var index = start + digits - 1
    while rest > 0 {
      bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
      index -= 1
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
