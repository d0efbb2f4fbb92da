import StoicTesting
import Testing

@testable import StoicStore

/// Segment names: the one a compressed segment gets records its summary, and every name an
/// earlier open took for a segment is still one.
@Suite("Journal file names")
struct JournalFileNamesTests {
  typealias Names = JournalFileNames

  @Test("a compressed segment's name gives back its first sequence and summary")
  func roundTrip() throws {
    let cases: [(UInt64, Names.CompressedSummary)] = [
      // An empty segment: its header and trailer alone.
      (
        1,
        .init(
          end: 0, records: 0,
          bytes: UInt64(JournalCompressedSegment.headerSize + JournalCompressedSegment.trailerSize))
      ),
      (1, .init(end: 0x150, records: 0x150, bytes: 0xb70)),
      (0x2a1, .init(end: 0x3f0, records: 0x100, bytes: 1 << 40)),
      (
        JournalFrame.maximumSequence,
        .init(end: JournalFrame.maximumSequence, records: 1, bytes: .max)
      ),
    ]
    for (first, summary) in cases {
      let name = Names.compressedSegment(first: first, summary: summary)
      let parsed = try #require(Names.parseSegment(name), "\(name)")
      #expect(parsed == Names.Segment(first: first, kind: .compressed, summary: summary))
    }
    #expect(
      Names.compressedSegment(first: 1, summary: .init(end: 0x150, records: 0x150, bytes: 0xb70))
        == "journal-0000000000000001-0000000000000150-150-b70.zst")
  }

  @Test("names of the earlier form, in either case and with a leading plus, are segments as before")
  func earlierForms() {
    #expect(
      Names.parseSegment("journal-00000000000000ab.log")
        == Names.Segment(first: 0xab, kind: .log, summary: nil))
    #expect(Names.parseSegment("journal-00000000000000AB.zst")?.first == 0xab)
    #expect(Names.parseSegment("journal-+00000000000000f.log")?.first == 0xf)
    #expect(Names.parseSegment(Names.segment(first: 7, kind: .compressed))?.summary == nil)
    #expect(Names.parseSegment("journal-0000000000000000.log") == nil)
    #expect(Names.parseSegment("journal-8000000000000000.log") == nil)
  }

  @Test("a summary that cannot describe the segment leaves it a segment checked at open")
  func impossibleSummaries() throws {
    let impossible: [Names.CompressedSummary] = [
      .init(end: 5, records: 0, bytes: 100),  // ends before its first sequence - 1 (9)
      .init(end: 12, records: 4, bytes: 100),  // more records than sequences 10...12
      .init(end: 12, records: 3, bytes: 10),  // no room for the header and trailer
      .init(end: JournalFrame.maximumSequence + 1, records: 1, bytes: 100),
    ]
    for summary in impossible {
      let name = Names.compressedSegment(first: 10, summary: summary)
      let parsed = try #require(Names.parseSegment(name), "\(name)")
      #expect(parsed.first == 10 && parsed.kind == .compressed && parsed.summary == nil)
    }
  }

  @Test("names that only look like segments are not segments")
  func notSegments() {
    for name in [
      "journal-0000000000000001-0000000000000150-150-b70.log",  // a .log records nothing
      "journal-0000000000000001-0000000000000150-150.zst",  // a field missing
      "journal-0000000000000001-150-150-b70.zst",  // end not 16 digits
      "journal-0000000000000001-0000000000000150--b70.zst",  // an empty field
      "journal-0000000000000001-0000000000000150-150-10000000000000000.zst",  // 17 digits
      "journal-0000000000000001-0000000000000150-15g-b70.zst",
      "journal-0000000000000001x0000000000000150-150-b70.zst",
      "journal-0000000000000001.zst.tmp", "journal-0000000000000001.log.corrupt-0",
      "journal.checkpoint", "journal-000000000000001.log",
    ] {
      #expect(Names.parseSegment(name) == nil, "\(name)")
    }
  }

  @Test("the parse agrees with the layout read field by field, over names mutated at random")
  func agreesWithLayout() {
    var random = SplitMix64(seed: 0x6e61_6d65)
    let seeds = [
      Names.segment(first: 0xab, kind: .log), Names.segment(first: 7, kind: .compressed),
      "journal-00000000000000AB.zst", "journal-+00000000000000f.log",
      Names.compressedSegment(first: 1, summary: .init(end: 0x150, records: 0x150, bytes: 0xb70)),
      Names.compressedSegment(first: 0x2a1, summary: .init(end: 0x3f0, records: 0xF, bytes: 64)),
    ]
    let alphabet = Array("0189afAFg+-.xlogzstj".utf8)
    var disagreements: [String] = []
    for round in 0..<20_000 {
      var bytes = Array(seeds[round % seeds.count].utf8)
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let at = Int(random.next() % UInt64(bytes.count))
        let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
        switch random.next() % 3 {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        default: bytes.remove(at: at)
        }
      }
      let name = String(decoding: bytes, as: UTF8.self)
      if Names.parseSegment(name) != Self.layout(name) { disagreements.append(name) }
    }
    #expect(disagreements.count == 0, "\(disagreements.prefix(5))")
  }

  /// The layout on ``JournalFileNames`` read with `String`'s own tools: what the parse must
  /// give for every name.
  static func layout(_ name: String) -> Names.Segment? {
    guard name.hasPrefix("journal-") else { return nil }
    let kind: Names.SegmentKind
    if name.hasSuffix(".log") {
      kind = .log
    } else if name.hasSuffix(".zst") {
      kind = .compressed
    } else {
      return nil
    }
    let middle = Array(name.utf8.dropFirst(8).dropLast(4))
    guard middle.count >= 16 else { return nil }
    func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
      guard (1...16).contains(digits.count), digits.allSatisfy({ Character(.init($0)).isHexDigit })
      else { return nil }
      return UInt64(String(decoding: digits, as: UTF8.self), radix: 16)
    }
    // The first sequence: 16 digits, or a `+` and 15.
    let firstField = middle[0..<16]
    guard
      let first = firstField.first == UInt8(ascii: "+")
        ? hex(firstField.dropFirst()) : hex(firstField),
      first >= 1, first <= JournalFrame.maximumSequence
    else { return nil }
    let rest = middle.dropFirst(16)
    if rest.isEmpty { return Names.Segment(first: first, kind: kind, summary: nil) }
    let fields = rest.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard kind == .compressed, fields.count == 4, fields[0].isEmpty, fields[1].count == 16,
      let end = hex(fields[1]), let records = hex(fields[2]), let size = hex(fields[3])
    else { return nil }
    let possible =
      end <= JournalFrame.maximumSequence && end >= first - 1 && records <= end - (first - 1)
      && size >= UInt64(JournalCompressedSegment.headerSize + JournalCompressedSegment.trailerSize)
    return Names.Segment(
      first: first, kind: kind,
      summary: possible ? .init(end: end, records: records, bytes: size) : nil)
  }
}
