/// The names of a journal's files inside its directory (package-visible: the `stoic` tool
/// recognises a journal's files by them).
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

  /// `journal-<first, 16 hex digits>.log` or `.zst`.
  package static func segment(first: UInt64, kind: SegmentKind) -> String {
    let hex = String(first, radix: 16)
    let padded = String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    return "journal-\(padded)" + (kind == .log ? ".log" : ".zst")
  }

  /// Parses a segment name, or `nil` for any other file.
  package static func parseSegment(_ name: String) -> (first: UInt64, kind: SegmentKind)? {
    guard name.hasPrefix("journal-"), name.utf8.count == 8 + 16 + 4 else { return nil }
    let kind: SegmentKind
    if name.hasSuffix(".log") {
      kind = .log
    } else if name.hasSuffix(".zst") {
      kind = .compressed
    } else {
      return nil
    }
    let hex = name.dropFirst(8).prefix(16)
    // Sequences start at 1 and stay below 2^63 (see JournalFrame.maximumSequence).
    guard let first = UInt64(hex, radix: 16), first >= 1, first <= JournalFrame.maximumSequence
    else { return nil }
    return (first, kind)
  }

  /// The quarantine name for damaged bytes of `name` found at `offset`.
  static func quarantine(of name: String, offset: UInt64) -> String {
    "\(name).corrupt-\(String(offset, radix: 16))"
  }
}
