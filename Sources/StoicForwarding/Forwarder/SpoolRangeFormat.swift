public import StoicStore

/// The bytes of a ``SpoolRange`` as the forwarder's outbox stores it: 18 bytes, little endian.
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 1 | format version (1) |
/// | 1 | 1 | stream (``SpoolStream`` raw value) |
/// | 2 | 8 | first sequence |
/// | 10 | 8 | last sequence |
///
/// An entry of another version, or one that breaks these rules, does not decode: the outbox
/// keeps it byte for byte and counts it unreadable.
public enum SpoolRangeFormat {
  /// The version this build writes and reads.
  static let version: UInt8 = 1
  /// Where each field starts.
  static let versionOffset = 0
  static let streamOffset = 1
  static let firstOffset = 2
  static let lastOffset = 10
  /// The size of an encoded range.
  public static let size = 18

  /// The outbox codec for ranges.
  public static let codec = OutboxCodec<SpoolRange>(
    encode: { range in encode(range) }, decode: { bytes throws(StoreError) in try decode(bytes) })

  /// The bytes of `range`.
  public static func encode(_ range: SpoolRange) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: size)
    bytes[versionOffset] = version
    bytes[streamOffset] = range.stream.rawValue
    put(range.first, into: &bytes, at: firstOffset)
    put(range.last, into: &bytes, at: lastOffset)
    return bytes
  }

  /// The range `bytes` hold.
  ///
  /// - Throws: `StoreError/Code/unsupported` for another version, `StoreError/Code/corrupt`
  ///   for a wrong size, an unknown stream or a range whose last sequence is before its first.
  public static func decode(_ bytes: [UInt8]) throws(StoreError) -> SpoolRange {
    guard bytes.count == size else {
      throw StoreError(.corrupt, "a forwarded range is \(bytes.count) bytes, not \(size)")
    }
    guard bytes[versionOffset] == version else {
      throw StoreError(.unsupported, "forwarded range format \(bytes[versionOffset])")
    }
    guard let stream = SpoolStream(rawValue: bytes[streamOffset]) else {
      throw StoreError(.corrupt, "unknown stream \(bytes[streamOffset]) in a forwarded range")
    }
    let first = get(bytes, at: firstOffset)
    let last = get(bytes, at: lastOffset)
    guard first <= last else {
      throw StoreError(.corrupt, "a forwarded range ends (\(last)) before it starts (\(first))")
    }
    return SpoolRange(stream: stream, first: first, last: last)
  }

  private static func put(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
    for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }

  private static func get(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }
}
