/// One hexadecimal digit's value, for every reader of hex in the package: OTLP JSON's
/// `traceId` and `spanId`, W3C trace context in log metadata, percent-encoded header values, and
/// the example collector's JSON walk.
package enum HexDigit {
  /// The value of the hex digit `byte` (either case), or `nil` for any other byte.
  package static func value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
