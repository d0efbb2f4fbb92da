/// A W3C trace id: 16 bytes, not all zero, written as 32 lowercase hexadecimal digits.
///
/// Held as two 64-bit halves, `high` the first 8 bytes in the order the W3C Trace Context and
/// OTLP write them (big-endian), `low` the last 8.
public struct TraceID: Sendable, Hashable, CustomStringConvertible {
  /// The first 8 bytes, big-endian.
  public var high: UInt64
  /// The last 8 bytes, big-endian.
  public var low: UInt64

  /// The id of these two halves (all zero is the invalid id: see ``isValid``).
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The id 32 hexadecimal digits (either case) spell, or `nil` for anything else.
  public init?(hex text: some StringProtocol) {
    let utf8 = Array(text.utf8)
    guard utf8.count == 32, let high = HexDigits.value(of: utf8[0..<16]),
      let low = HexDigits.value(of: utf8[16..<32])
    else { return nil }
    self.init(high: high, low: low)
  }

  /// A random valid id, from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> TraceID {
    while true {
      let id = TraceID(high: generator.next(), low: generator.next())
      if id.isValid { return id }
    }
  }

  /// Whether the id is valid: not all zero.
  public var isValid: Bool { high != 0 || low != 0 }

  /// The 16 bytes, in order.
  public var bytes: [UInt8] { HexDigits.bytes(of: high) + HexDigits.bytes(of: low) }

  /// 32 lowercase hexadecimal digits.
  public var description: String { HexDigits.text(of: high) + HexDigits.text(of: low) }
}

/// A W3C span id (OTLP's `span_id`): 8 bytes, not all zero, written as 16 lowercase
/// hexadecimal digits.
public struct SpanID: Sendable, Hashable, CustomStringConvertible {
  /// The 8 bytes, big-endian (0 is the invalid id, and stands for "no parent").
  public var value: UInt64

  /// The id of these 8 bytes.
  public init(_ value: UInt64) { self.value = value }

  /// The id 16 hexadecimal digits (either case) spell, or `nil` for anything else.
  public init?(hex text: some StringProtocol) {
    let utf8 = Array(text.utf8)
    guard utf8.count == 16, let value = HexDigits.value(of: utf8[...]) else { return nil }
    self.init(value)
  }

  /// A random valid id, from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> SpanID {
    while true {
      let id = SpanID(generator.next())
      if id.isValid { return id }
    }
  }

  /// Whether the id is valid: not all zero.
  public var isValid: Bool { value != 0 }

  /// The 8 bytes, in order.
  public var bytes: [UInt8] { HexDigits.bytes(of: value) }

  /// 16 lowercase hexadecimal digits.
  public var description: String { HexDigits.text(of: value) }
}

/// Hexadecimal digits of the ids.
enum HexDigits {
  /// The value of up to 16 hexadecimal digits, or `nil` for any other byte.
  static func value(of digits: ArraySlice<UInt8>) -> UInt64? {
    var value: UInt64 = 0
    for digit in digits {
      let nibble: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt64(nibble)
    }
    return value
  }

  /// 16 lowercase hexadecimal digits of `value`.
  static func text(of value: UInt64) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(
      unsafeUninitializedCapacity: 16,
      initializingUTF8With: { buffer in
        for index in 0..<16 {
          buffer[index] = digits[Int(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF]
        }
        return 16
      })
  }

  /// The 8 bytes of `value`, big-endian.
  static func bytes(of value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
  }
}
