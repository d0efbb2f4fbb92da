/// Base64 (RFC 4648) for proto3 JSON's `bytes` fields: written with the standard alphabet and
/// padding; read in either alphabet (standard or URL-safe), with or without padding, as
/// protobuf's JSON parsers read it.
enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends the encoding of `bytes` to `output`.
  static func encode(_ bytes: [UInt8], into output: inout ByteBuffer) {
    var index = 0
    while index + 3 <= bytes.count {
      let chunk =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(chunk >> 18 & 63)])
      output.append(alphabet[Int(chunk >> 12 & 63)])
      output.append(alphabet[Int(chunk >> 6 & 63)])
      output.append(alphabet[Int(chunk & 63)])
      index += 3
    }
    let rest = bytes.count - index
    guard rest > 0 else { return }
    let first = UInt32(bytes[index]) << 16
    let chunk = rest == 2 ? first | UInt32(bytes[index + 1]) << 8 : first
    output.append(alphabet[Int(chunk >> 18 & 63)])
    output.append(alphabet[Int(chunk >> 12 & 63)])
    output.append(rest == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
    output.append(UInt8(ascii: "="))
  }

  /// The bytes `text` encodes, or `nil` if it is not base64.
  static func decode(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count / 4 * 3 + 2)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for character in text.utf8 {
      if character == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      guard padding == 0, let value = sextet(character) else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    // Leftover bits must be padding zeros: 0 (complete), 2 or 4 bits (one or two bytes short).
    guard bits != 6, padding <= 2, accumulator & ((1 << UInt32(bits)) - 1) == 0 else {
      return nil
    }
    return output
  }

  private static func sextet(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
    case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
