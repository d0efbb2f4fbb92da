import StoicCLI
import Testing

/// Tables, JSON, times, sizes and colour, on their own.
@Suite("output formats")
struct OutputFormatTests {
  @Test("a table aligns its columns, right-aligns numbers, leaves no trailing blanks")
  func table() {
    var table = TextTable([("NAME", .left), ("SIZE", .right), ("NOTE", .left)])
    table.add(["a", "5", ""])
    table.add(["longer-name", "12345", "x"])
    let lines = table.render(style: Style(enabled: false), indent: 2)
    #expect(
      lines == [
        "  NAME          SIZE  NOTE",
        "  a                5",
        "  longer-name  12345  x",
      ])
  }

  @Test("the last column wraps at the width, under itself")
  func wrapping() {
    var table = TextTable([("K", .left), ("TEXT", .left)])
    table.add(["key", "one two three four five six seven eight nine ten eleven twelve"])
    let lines = table.render(style: Style(enabled: false), width: 30)
    #expect(lines.allSatisfy { $0.count <= 30 }, "\(lines)")
    #expect(lines[1].hasPrefix("key  one two"))
    #expect(lines[2].hasPrefix("     "))
    #expect(
      lines.dropFirst().map { $0.dropFirst(5) }.joined(separator: " ")
        == "one two three four five six seven eight nine ten eleven twelve")
    #expect(
      TextTable.wrap("averyveryverylongword short", width: 5) == ["averyveryverylongword", "short"])
  }

  @Test("paint only when enabled; alignment ignores the escape codes")
  func colour() {
    #expect(Style(enabled: false)("x", .red) == "x")
    #expect(Style(enabled: true)("x", .red) == "\u{1B}[31mx\u{1B}[0m")
    var table = TextTable([("A", .left), ("B", .left)])
    table.add([TextTable.Cell("x", .red), "y"])
    let painted = table.render(style: Style(enabled: true))
    #expect(painted[1] == "\u{1B}[31mx\u{1B}[0m  y")
  }

  @Test("colour on a terminal only, never with NO_COLOR (non-empty) or TERM=dumb")
  func colourDecision() {
    #expect(!Terminal.refusesColour([:]))
    #expect(Terminal.refusesColour(["NO_COLOR": "1"]))
    #expect(!Terminal.refusesColour(["NO_COLOR": ""]), "an empty NO_COLOR does not count")
    #expect(Terminal.refusesColour(["TERM": "dumb"]))
    let terminal = Terminal(outputIsTerminal: true, errorIsTerminal: false, colourRefused: false)
    #expect(terminal.colourOnOutput)
    #expect(!terminal.colourOnError)
    #expect(!terminal.showsProgress, "progress only on a terminal")
    let refused = Terminal(outputIsTerminal: true, errorIsTerminal: true, colourRefused: true)
    #expect(!refused.colourOnOutput && !refused.colourOnError)
    #expect(refused.showsProgress, "NO_COLOR is about colour, not progress")
    let piped = Terminal(outputIsTerminal: false, errorIsTerminal: false, colourRefused: false)
    #expect(!piped.colourOnOutput && !piped.showsProgress)
  }

  @Test("JSON: key order kept, strings escaped, nesting indented")
  func json() {
    let value = JSONValue.object([
      (
        "z",
        .string(
          "quote \" backslash \\ newline \n tab \t bell \u{07} é del \u{7F} c1 \u{80}\u{9B}\u{9F} \u{A0}"
        )
      ),
      ("a", .array([.int(-1), .unsigned(UInt64.max), .bool(true), .null])), ("e", .object([])),
      ("f", .array([])),
    ])
    #expect(
      value.rendered() == """
        {
          "z": "quote \\" backslash \\\\ newline \\n tab \\t bell \\u0007 é del \\u007f c1 \\u0080\\u009b\\u009f \u{A0}",
          "a": [
            -1,
            18446744073709551615,
            true,
            null
          ],
          "e": {},
          "f": []
        }
        """)
  }

  @Test("RFC 3339 times in UTC and in the local zone")
  func times() {
    #expect(TimeFormat.rfc3339(seconds: 0, utc: true) == "1970-01-01T00:00:00Z")
    #expect(
      TimeFormat.rfc3339(seconds: 1_700_000_000, nanoseconds: 123_456_789, digits: 9, utc: true)
        == "2023-11-14T22:13:20.123456789Z")
    #expect(
      TimeFormat.rfc3339(milliseconds: 1_700_000_000_007, utc: true) == "2023-11-14T22:13:20.007Z")
    #expect(TimeFormat.rfc3339(milliseconds: -1, utc: true) == "1969-12-31T23:59:59.999Z")
    let local = TimeFormat.rfc3339(seconds: 1_700_000_000, utc: false)
    #expect(local.count == "2023-11-14T22:13:20+00:00".count, "\(local)")
    #expect(local.dropFirst(19).first == "+" || local.dropFirst(19).first == "-", "\(local)")
  }

  @Test("sizes in binary units")
  func sizes() {
    #expect(ByteCount.describe(0) == "0 B")
    #expect(ByteCount.describe(1023) == "1023 B")
    #expect(ByteCount.describe(1024) == "1.0 KiB")
    #expect(ByteCount.describe(1536) == "1.5 KiB")
    #expect(ByteCount.describe(8 << 20) == "8.0 MiB")
    #expect(ByteCount.describe(UInt64.max) == "16.0 EiB")
  }
}
