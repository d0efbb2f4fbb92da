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

  /// Parses a segment name, or `nil` for any other file. One pass over the name's bytes, with
  /// no allocation: an open parses every name of its directory.
  package static func parseSegment(_ name: String) -> Segment? {
    var name = name
    return name.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
  }

  private static func parse(_ utf8: UnsafeRawBufferPointer) -> Segment? {
    let count = utf8.count
    // The prefix and the suffix compared a word at a time (as loaded, so byte for byte).
    guard count >= firstOffset + firstDigits + suffixLength, let base = utf8.baseAddress,
      base.loadUnaligned(as: UInt64.self) == words.prefix
    else { return nil }
    let kind: SegmentKind
    switch base.loadUnaligned(fromByteOffset: count - suffixLength, as: UInt32.self) {
    case words.log: kind = .log
    case words.compressed: kind = .compressed
    default: return nil
    }
    // Sequences start at 1 and stay below 2^63 (see JournalFrame.maximumSequence). The first
    // sequence is read as `UInt64(_:radix:)` reads it (a leading `+` included), as it always
    // was: a name an earlier open took for a segment still is one.
    var firstStart = firstOffset
    if utf8[firstStart] == UInt8(ascii: "+") { firstStart += 1 }
    guard let first = hex(utf8, firstStart, firstOffset + firstDigits), first >= 1,
      first <= JournalFrame.maximumSequence
    else { return nil }
    let middleStart = firstOffset + firstDigits
    let middleEnd = count - suffixLength
    if middleStart == middleEnd { return Segment(first: first, kind: kind, summary: nil) }
    // `-<end, 16 digits>-<records>-<bytes>`.
    guard kind == .compressed, utf8[middleStart] == UInt8(ascii: "-") else { return nil }
    let endStart = middleStart + 1
    let endEnd = endStart + firstDigits
    guard endEnd < middleEnd, utf8[endEnd] == UInt8(ascii: "-"),
      let end = hex(utf8, endStart, endEnd)
    else { return nil }
    var cursor = endEnd + 1
    while cursor < middleEnd, utf8[cursor] != UInt8(ascii: "-") { cursor += 1 }
    guard cursor < middleEnd, let records = hex(utf8, endEnd + 1, cursor),
      let bytes = hex(utf8, cursor + 1, middleEnd)
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

  /// The value of the 1 to 16 hex digits `utf8[start..<end]` (either case), or `nil`.
  private static func hex(_ utf8: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> UInt64? {
    guard start < end, end - start <= firstDigits else { return nil }
    var value: UInt64 = 0
    for index in start..<end {
      let byte = utf8[index]
      let digit: UInt8
      if byte &- UInt8(ascii: "0") < 10 {
        digit = byte &- UInt8(ascii: "0")
      } else if (byte | 0x20) &- UInt8(ascii: "a") < 6 {
        // `| 0x20` takes `A`…`F` to `a`…`f`, and no other byte there.
        digit = ((byte | 0x20) &- UInt8(ascii: "a")) &+ 10
      } else {
        return nil
      }
      value = (value << 4) | UInt64(digit)
    }
    return value
  }

  /// The prefix `journal-` and the suffixes `.log` and `.zst` as the words a name's bytes
  /// load as.
  private static let words = (
    prefix: word(prefix, as: UInt64.self), log: word(".log", as: UInt32.self),
    compressed: word(".zst", as: UInt32.self)
  )

  private static func word<Word: FixedWidthInteger>(_ text: String, as type: Word.Type) -> Word {
    Array(text.utf8).withUnsafeBytes { $0.loadUnaligned(as: Word.self) }
  }

  /// The quarantine name for damaged bytes of `name` found at `offset`.
  static func quarantine(of name: String, offset: UInt64) -> String {
    "\(name).corrupt-\(String(offset, radix: 16))"
  }
}
