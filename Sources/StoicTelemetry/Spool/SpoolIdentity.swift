/// A spool's identity: 128 random bits, made once when the spool is created and kept in
/// `<root>/spool.id`. The forwarder derives its idempotency keys from it and a range of
/// sequences, so the same records always carry the same key.
public struct SpoolIdentity: Sendable, Hashable, CustomStringConvertible {
  /// The 16 bytes.
  public let bytes: [UInt8]

  /// An identity of 16 bytes, or `nil` for any other count.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    self.bytes = bytes
  }

  /// An identity from its 32 lower-case hexadecimal digits (``hex``), or `nil`.
  public init?(hex: some StringProtocol) {
    let digits = Array(hex.utf8)
    guard digits.count == 32 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    for index in stride(from: 0, to: 32, by: 2) {
      guard let high = Self.value(of: digits[index]), let low = Self.value(of: digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
    }
    self.bytes = bytes
  }

  /// A new identity from the system's random source.
  public static func random() -> SpoolIdentity {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return SpoolIdentity(unchecked: bytes)
  }

  private init(unchecked bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The 32 lower-case hexadecimal digits.
  public var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(32)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// ``hex``.
  public var description: String { hex }

  private static func value(of digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
