/// How the outbox turns an app's items into the bytes it stores, and back.
///
/// A pair of closures rather than `Codable`: the core stays Foundation-free and the app picks
/// its encoding. A decode failure is never fatal: the entry is kept byte for byte, counted as
/// unreadable and reported (``Outbox/unreadable``), never dropped and never silently skipped.
public struct OutboxCodec<Item>: Sendable {
  /// Encodes an item; a thrown error fails the `enqueue` that called it.
  public let encode: @Sendable (Item) throws(StoreError) -> [UInt8]
  /// Decodes stored bytes; a thrown error marks the entry unreadable.
  public let decode: @Sendable ([UInt8]) throws(StoreError) -> Item

  /// Creates a codec from its two closures.
  public init(
    encode: @escaping @Sendable (Item) throws(StoreError) -> [UInt8],
    decode: @escaping @Sendable ([UInt8]) throws(StoreError) -> Item
  ) {
    self.encode = encode
    self.decode = decode
  }
}

extension OutboxCodec where Item == [UInt8] {
  /// Items are raw bytes, stored as they are.
  public static var bytes: OutboxCodec<[UInt8]> {
    OutboxCodec(encode: { $0 }, decode: { $0 })
  }
}

extension OutboxCodec where Item == String {
  /// Items are strings, stored as UTF-8; bytes that are not valid UTF-8 are unreadable.
  public static var utf8: OutboxCodec<String> {
    OutboxCodec(
      encode: { Array($0.utf8) },
      decode: { (bytes) throws(StoreError) -> String in
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw StoreError(.corrupt, "outbox item is not valid UTF-8")
        }
        return text
      })
  }
}
