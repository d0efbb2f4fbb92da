/// Text from records and the disk made safe for a terminal, as `journalctl` and `ls -b` do:
/// every control character (C0, DEL, C1), the Unicode line and paragraph separators and the
/// bidirectional controls are written as an escape, so a line of output is exactly one line,
/// nothing a record holds can move the cursor, set a title or paint the screen, and no text
/// displays in another order than the one it is stored in (a forged name shown reversed).
///
/// Escapes: `\n`, `\r`, `\t`; other C0 and DEL as `\xNN`; C1, U+2028, U+2029 and the
/// bidirectional controls (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) as `\uNNNN`.
/// ``escaped(_:)`` (for the text of records: label, message, metadata) also writes a
/// backslash as `\\`, so an escape on the screen always stands for the character it names and
/// a message cannot forge one.
///
/// The command-line tool writes every line through it, and so does the diagnostic channel
/// (``DiagnosticChannel``), whose lines carry paths and receivers' messages.
package enum TerminalText {
  /// `text` with its control characters and backslashes escaped.
  package static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { needsEscape($0) || $0 == UInt8(ascii: "\\") }) else {
      return text
    }
    var output = ""
    output.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if scalar == "\\" {
        output += "\\\\"
      } else {
        append(scalar, to: &output)
      }
    }
    return output
  }

  /// Whether `scalar` is one `TerminalText` escapes.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
      || scalar.value == 0x2029 || isBidirectionalControl(scalar)
  }

  /// Whether `scalar` is a bidirectional control: the marks U+200E and U+200F, the embeddings
  /// and overrides U+202A to U+202E, the isolates U+2066 to U+2069.
  private static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0x200E || scalar.value == 0x200F || (0x202A...0x202E).contains(scalar.value)
      || (0x2066...0x2069).contains(scalar.value)
  }

  /// Whether a UTF-8 byte may start a character `TerminalText` escapes: C0, DEL, the lead
  /// byte of C1 (U+0080 to U+009F are `C2 80` to `C2 9F`) or of U+2028, U+2029 and the
  /// bidirectional controls (`E2`).
  package static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
  }

  /// Appends `scalar` to `output`, as its escape when it is a control.
  package static func append(_ scalar: Unicode.Scalar, to output: inout String) {
    guard isControl(scalar) else {
      output.unicodeScalars.append(scalar)
      return
    }
    switch scalar {
    case "\n": output += "\\n"
    case "\r": output += "\\r"
    case "\t": output += "\\t"
    case _ where scalar.value <= 0x7F: output += "\\x" + hex(scalar.value, digits: 2)
    default: output += "\\u" + hex(scalar.value, digits: 4)
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
