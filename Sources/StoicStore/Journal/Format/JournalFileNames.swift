/// The names of a journal's files inside its directory (package-visible: the `stoic` tool
/// recognises a journal's files by them).
///
/// A segment is `journal-<first>.log` while appendable. A compressed one is
/// `journal-<first>-<end>-<records>-<bytes>.zst`: its name records where its records end, how
/// many it holds and its size, so that an open places it without reading it. The name is given
/// by the rename that puts the durable file in place, so no crash leaves a file under a name
/// that does not describe it; what the name records is checked against the file's trailer and
/// size when the segment is read (see ``CompressedSummary``). `journal-<first>.zst`, written
/// before names recorded this, is still read: an open checks its header and trailer.
package enum JournalFileNames {
  /// The advisory lock file.
  package static let lock = "journal.lock"
  /// The checkpoint (low-water mark and snapshot).
  package static let checkpoint = "journal.checkpoint"
  /// Suffix of every temporary file; stale ones are removed at open.
  package static let temporarySuffix = ".tmp"

  /// How a segment's records are stored.
  package enum SegmentKind: Sendable, Hashable {
    /// Plain frames, appendable (`.log`).
    case log
    /// zstd-compressed blocks, sealed (`.zst`).
    case compressed
  }

  /// What a compressed segment's name records of it: the claims of its trailer and its size.
  package struct CompressedSummary: Sendable, Hashable {
    /// Its last sequence, or its first sequence - 1 when it holds no record.
    package var end: UInt64
    /// How many records it holds.
    package var records: UInt64
    /// The file's size in bytes.
    package var bytes: UInt64

    package init(end: UInt64, records: UInt64, bytes: UInt64) {
      self.end = end
      self.records = records
      self.bytes = bytes
    }
  }

  /// A segment's name, parsed.
  package struct Segment: Sendable, Hashable {
    /// Its first sequence.
    package var first: UInt64
    /// How its records are stored.
    package var kind: SegmentKind
    /// For a compressed segment whose name records it, what the name records (`nil` for a name
    /// of the earlier form, or one whose figures cannot describe the segment: such a segment
    /// is checked at open).
    package var summary: CompressedSummary?
  }

  /// Name layout: `journal-` (offset 0, 8 bytes), the first sequence in 16 lowercase hex
  /// digits (offset 8), then for a compressed segment that records its summary `-<end, 16
  /// hex digits>-<records, hex>-<bytes, hex>`, then `.log` or `.zst`.
  private static let prefix = "journal-"
  private static let firstOffset = 8
  private static let firstDigits = 16
  private static let suffixLength = 4

  /// `journal-<first, 16 hex digits>.log` or `.zst` (a compressed segment of the earlier form,
  /// whose summary the name does not record).
  package static func segment(first: UInt64, kind: SegmentKind) -> String {
    prefix + padded(first) + (kind == .log ? ".log" : ".zst")
  }

  /// `journal-<first>-<end>-<records>-<bytes>.zst`: a compressed segment's name recording its
  /// summary.
  package static func compressedSegment(first: UInt64, summary: CompressedSummary) -> String {
    prefix + padded(first) + "-" + padded(summary.end) + "-"
      + String(summary.records, radix: 16) + "-" + String(summary.bytes, radix: 16) + ".zst"
  }

  private static func padded(_ value: UInt64) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, firstDigits - hex.count)) + hex
  }

  /// Parses a segment name, or `nil` for any other file.
  package static func parseSegment(_ name: String) -> Segment? {
    let utf8 = Array(name.utf8)
    guard name.hasPrefix(prefix), utf8.count >= firstOffset + firstDigits + suffixLength
    else { return nil }
    let kind: SegmentKind
    if name.hasSuffix(".log") {
      kind = .log
    } else if name.hasSuffix(".zst") {
      kind = .compressed
    } else {
      return nil
    }
    // Sequences start at 1 and stay below 2^63 (see JournalFrame.maximumSequence).
    let firstHex = String(decoding: utf8[firstOffset..<(firstOffset + firstDigits)], as: UTF8.self)
    guard let first = UInt64(firstHex, radix: 16), first >= 1,
      first <= JournalFrame.maximumSequence
    else { return nil }
    let middle = utf8[(firstOffset + firstDigits)..<(utf8.count - suffixLength)]
    if middle.isEmpty { return Segment(first: first, kind: kind, summary: nil) }
    let fields = middle.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard kind == .compressed, middle.first == UInt8(ascii: "-"), fields.count == 4,
      fields[1].count == firstDigits, let end = hex(fields[1]), let records = hex(fields[2]),
      let bytes = hex(fields[3])
    else { return nil }
    let summary = CompressedSummary(end: end, records: records, bytes: bytes)
    return Segment(
      first: first, kind: kind, summary: describes(summary, first: first) ? summary : nil)
  }

  /// Whether `summary` can describe a compressed segment starting at `first`: its end at most
  /// the last sequence and not before `first - 1`, no more records than sequences in between,
  /// and room for the format's header and trailer.
  private static func describes(_ summary: CompressedSummary, first: UInt64) -> Bool {
    summary.end <= JournalFrame.maximumSequence && summary.end >= first - 1
      && summary.records <= summary.end - (first - 1)
      && summary.bytes
        >= UInt64(JournalCompressedSegment.headerSize + JournalCompressedSegment.trailerSize)
  }

  /// The value of 1 to 16 hex digits, or `nil`.
  private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
    guard !digits.isEmpty, digits.count <= firstDigits else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - 48)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - 87)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt64(digit - 55)
      default: return nil
      }
    }
    return value
  }

  /// The quarantine name for damaged bytes of `name` found at `offset`.
  static func quarantine(of name: String, offset: UInt64) -> String {
    "\(name).corrupt-\(String(offset, radix: 16))"
  }
}
