import StoicStore

/// The file a ``SegmentSummary`` is kept in: fixed fields, the labels, and a CRC-32C over all of
/// it, so that a damaged or truncated summary is told from a good one and never used.
///
/// ## Layout (version 1)
///
/// Little-endian.
///
/// | offset | field | bytes |
/// | --- | --- | --- |
/// | 0 (``magicOffset``) | `STQS` (``magic``) | 4 |
/// | 4 (``versionOffset``) | format version (``version``) | 1 |
/// | 5 (``flagsOffset``) | flags: bit 0 (``labelsKnown``) set when the labels are listed | 1 |
/// | 6 (``levelsOffset``) | levels present (``SegmentSummary/levels``) | 1 |
/// | 7 (``reservedOffset``) | zero | 1 |
/// | 8 (``firstOffset``) | first sequence | 8 |
/// | 16 (``lastOffset``) | last sequence | 8 |
/// | 24 (``recordsOffset``) | records | 8 |
/// | 32 (``earliestOffset``) | earliest time, nanoseconds since 1970 (signed) | 8 |
/// | 40 (``latestOffset``) | latest time (signed) | 8 |
/// | 48 (``labelCountOffset``) | label count | 4 |
/// | 52 (``headerSize``) | each label: a 2-byte length, then its UTF-8 | … |
/// | end − 4 | CRC-32C of every byte before it | 4 |
///
/// ``decode(_:)`` checks the size, the magic, the version, the checksum, every length, the
/// labels' UTF-8 and order, and returns `nil` for anything that does not check: it never traps.
public enum SegmentSummaryFormat {
  /// The first four bytes: `STQS`.
  public static let magic: [UInt8] = Array("STQS".utf8)
  /// The version this build writes and reads: 1.
  public static let version: UInt8 = 1
  /// Where the magic is: 0.
  public static let magicOffset = 0
  /// Where the version byte is: 4.
  public static let versionOffset = 4
  /// Where the flags byte is: 5.
  public static let flagsOffset = 5
  /// Where the levels byte is: 6.
  public static let levelsOffset = 6
  /// Where the reserved zero byte is: 7.
  public static let reservedOffset = 7
  /// Where the first sequence is: 8.
  public static let firstOffset = 8
  /// Where the last sequence is: 16.
  public static let lastOffset = 16
  /// Where the record count is: 24.
  public static let recordsOffset = 24
  /// Where the earliest time is: 32.
  public static let earliestOffset = 32
  /// Where the latest time is: 40.
  public static let latestOffset = 40
  /// Where the label count is: 48.
  public static let labelCountOffset = 48
  /// The fixed part's size: 52. The labels start here.
  public static let headerSize = 52
  /// The checksum's size, at the end: 4.
  public static let checksumSize = 4
  /// The flag set when the labels are listed.
  public static let labelsKnown: UInt8 = 1

  /// The bytes `summary` is stored as.
  public static func encode(_ summary: SegmentSummary) -> [UInt8] {
    var bytes = magic
    bytes.append(version)
    bytes.append(summary.labels == nil ? 0 : labelsKnown)
    bytes.append(summary.levels)
    bytes.append(0)
    append(summary.first, to: &bytes)
    append(summary.last, to: &bytes)
    append(summary.records, to: &bytes)
    append(UInt64(bitPattern: summary.earliest), to: &bytes)
    append(UInt64(bitPattern: summary.latest), to: &bytes)
    let labels = summary.labels ?? []
    append(UInt32(labels.count), to: &bytes)
    for label in labels {
      let utf8 = Array(label.utf8.prefix(Int(UInt16.max)))
      append(UInt16(utf8.count), to: &bytes)
      bytes += utf8
    }
    append(CRC32C.checksum(bytes), to: &bytes)
    return bytes
  }

  /// The summary `bytes` hold, or `nil` when they do not check.
  public static func decode(_ bytes: [UInt8]) -> SegmentSummary? {
    guard bytes.count >= headerSize + checksumSize,
      bytes[magicOffset..<(magicOffset + magic.count)].elementsEqual(magic),
      bytes[versionOffset] == version, bytes[reservedOffset] == 0,
      bytes[flagsOffset] & ~labelsKnown == 0
    else { return nil }
    let body = bytes.count - checksumSize
    let stored = UInt32(truncatingIfNeeded: load(bytes, at: body, size: 4))
    guard CRC32C.checksum(Array(bytes[..<body])) == stored else { return nil }
    var summary = SegmentSummary(
      first: load(bytes, at: firstOffset, size: 8), last: load(bytes, at: lastOffset, size: 8))
    summary.records = load(bytes, at: recordsOffset, size: 8)
    summary.earliest = Int64(bitPattern: load(bytes, at: earliestOffset, size: 8))
    summary.latest = Int64(bitPattern: load(bytes, at: latestOffset, size: 8))
    summary.levels = bytes[levelsOffset]
    let count = Int(load(bytes, at: labelCountOffset, size: 4))
    guard count <= SegmentSummary.maximumLabels, summary.first <= summary.last else { return nil }
    var labels: [String] = []
    var offset = headerSize
    for _ in 0..<count {
      guard offset + 2 <= body else { return nil }
      let length = Int(load(bytes, at: offset, size: 2))
      offset += 2
      guard length <= body - offset else { return nil }
      guard let label = String(validating: bytes[offset..<(offset + length)], as: UTF8.self)
      else { return nil }
      if let previous = labels.last, previous >= label { return nil }
      labels.append(label)
      offset += length
    }
    guard offset == body else { return nil }
    let known = bytes[flagsOffset] & labelsKnown != 0
    guard known || count == 0 else { return nil }
    summary.labels = known ? labels : nil
    return summary
  }

  private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }

  private static func load(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value
  }
}
