import Foundation
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

@testable import StoicCLI

/// Text from records never reaches a terminal raw: `stoic query` and `stoic tail` print a
/// record as exactly one line without a control character whatever bytes its message, label
/// and metadata hold (a line break, ESC, OSC, BEL, DEL, C1, invalid UTF-8), and `--json`
/// gives those bytes back exactly.
@Suite struct TerminalEscapingTests {
  /// Bytes biased towards what a terminal acts on: C0, DEL, the UTF-8 of C1, U+2028 and two
  /// bidirectional controls (U+202E, U+2066), ESC sequences, backslashes, and stray bytes that
  /// are not UTF-8.
  static func hostileText(_ random: inout SplitMix64) -> String {
    let pieces: [[UInt8]] = [
      [0x0A], [0x0D], [0x09], [0x00], [0x07], [0x1B], [0x7F], [0xC2, 0x9B], [0xC2, 0x85],
      [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], Array("\u{1B}[31m".utf8),
      Array("\u{1B}]0;title\u{07}".utf8),
      Array("\\n".utf8), [0xFF], [0xC2], [0xE2, 0x80], Array("2026-01-01 critical FORGED".utf8),
      Array("é ok".utf8),
    ]
    var bytes: [UInt8] = []
    for _ in 0..<random.below(12) {
      if random.below(3) == 0 {
        bytes.append(UInt8(truncatingIfNeeded: random.next()))
      } else {
        bytes += pieces[random.below(pieces.count)]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A new spool at `root` (`spool.id`, `logs/`), its log journal open.
  static func spoolJournal(_ root: String) throws -> Journal {
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try Data("00112233445566778899aabbccddeeff\n".utf8).write(
      to: URL(fileURLWithPath: root + "/spool.id"))
    return try Journal.open(
      directory: root + "/logs", fileSystem: PosixFileSystem(),
      options: StoreFixtures.journalOptions(compress: false))
  }

  static func hasControl(_ line: Substring) -> Bool {
    line.unicodeScalars.contains(where: TerminalText.isControl)
  }

  @Test func anyBytesPrintAsOneLineEachAndJSONGivesThemBack() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let journal = try Self.spoolJournal(root)
      var random = SplitMix64(seed: 25)
      var records: [LogRecord] = []
      for index in 0..<200 {
        let record = LogRecord(
          timeNanoseconds: 1_790_000_000_000_000_000 + Int64(index), level: .info,
          label: Self.hostileText(&random), message: Self.hostileText(&random),
          metadata: [
            Self.hostileText(&random): .string(Self.hostileText(&random)),
            "nested": .dictionary(["k": .string(Self.hostileText(&random))]),
          ], source: "S", file: "F.swift", function: "f()", line: 1)
        _ = try journal.append(LogRecordFormat.encode(record))
        records.append(record)
      }
      try journal.close()

      for command in [["query", root], ["tail", "-n", "200", root]] {
        let text = try StoicProcess.run(command)
        #expect(text.status == 0, "\(text)")
        let lines = text.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == records.count + 1, "\(command): \(lines.count) lines")
        #expect(lines.last == "")
        for line in lines {
          #expect(!Self.hasControl(line), "\(command): \(line.debugDescription)")
        }
      }

      let json = try StoicProcess.run(["query", "--json", root])
      #expect(json.status == 0, "\(json)")
      let objects = json.output.split(separator: "\n")
      #expect(objects.count == records.count)
      for (line, record) in zip(objects, records) {
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == record.message)
        #expect(object["label"] as? String == record.label)
        let metadata = try #require(object["metadata"] as? [String: Any])
        for (key, value) in record.metadata {
          switch value {
          case .string(let text):
            #expect(metadata[key] as? String == text)
          case .dictionary(let nested):
            let inner = metadata[key] as? [String: Any]
            #expect(inner?["k"] as? String == nested["k"]?.description)
          default:
            Issue.record("unexpected metadata \(value)")
          }
        }
      }
    }
  }

  /// A record whose text is not UTF-8 (written past the encoder) shows in `tail` as one line
  /// saying it is unreadable, with no control character from it.
  @Test func aRecordThatIsNotUTF8PrintsAsOneEscapedLine() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let journal = try Self.spoolJournal(root)
      let record = LogRecord(
        timeNanoseconds: 1_790_000_000_000_000_000, level: .error, label: "app",
        message: "MMMMMMMM", metadata: [:], source: "S", file: "F.swift", function: "f()",
        line: 1)
      var payload = LogRecordFormat.encode(record)
      let marker = Array("MMMMMMMM".utf8)
      let start = try #require(
        (0...(payload.count - marker.count)).first {
          Array(payload[$0..<($0 + marker.count)]) == marker
        })
      payload.replaceSubrange(
        start..<(start + 8), with: [0xFF, 0x0A, 0x1B, 0x5D, 0x07, 0xC2, 0x9B, 0xFE])
      _ = try journal.append(payload)
      try journal.close()
      let tail = try StoicProcess.run(["tail", root])
      #expect(tail.status == 0, "\(tail)")
      let lines = tail.output.split(separator: "\n")
      #expect(lines.count == 1, "\(tail)")
      #expect(lines.allSatisfy { !Self.hasControl($0) }, "\(tail)")
    }
  }

  @Test func escapesAsJournalctlAndLsDo() {
    #expect(TerminalText.escaped("a\nb") == "a\\nb")
    #expect(TerminalText.escaped("a\\nb") == "a\\\\nb")
    #expect(TerminalText.escaped("\u{1B}]0;t\u{07}") == "\\x1b]0;t\\x07")
    #expect(TerminalText.escaped("\u{7F}\u{9B}\u{2028}\t\r\0") == "\\x7f\\u009b\\u2028\\t\\r\\x00")
    #expect(TerminalText.escaped("plain é ✓") == "plain é ✓")
    // A forged producer name that a terminal would show reversed ("txt.exe" as "exe.txt").
    #expect(TerminalText.escaped("a\u{202E}txt.exe") == "a\\u202etxt.exe")
    for value: UInt32 in [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E]
      + [0x2066, 0x2067, 0x2068, 0x2069]
    {
      let scalar = Unicode.Scalar(value).map(String.init) ?? ""
      #expect(TerminalText.escaped(scalar) == "\\u" + String(value, radix: 16), "\(value)")
    }
    // Neighbours that are not controls stay as they are.
    #expect(
      TerminalText.escaped("\u{2029}\u{2030}\u{2065}\u{206A}") == "\\u2029\u{2030}\u{2065}\u{206A}")
    let painted = Style(enabled: true)("x\u{1B}[2Jy", .red)
    #expect(painted == "\u{1B}[31mx\\x1b[2Jy\u{1B}[0m")
    #expect(TerminalText.controlsEscaped(painted, keepingStyle: true) == painted)
    #expect(
      TerminalText.controlsEscaped("\u{1B}[31mx\n", keepingStyle: false) == "\\x1b[31mx\\n")
  }
}
