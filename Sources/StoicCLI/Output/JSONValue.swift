/// A JSON document built in the order its keys are given, and written without Foundation:
/// the `--json` output of every command.
public indirect enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case int(Int64)
  /// A whole number up to 2^64 - 1 (sequences, sizes).
  case unsigned(UInt64)
  /// A number with a fraction; one that is not finite is written as OTLP's JSON writes it, a
  /// string (`"NaN"`, `"Infinity"`, `"-Infinity"`).
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object whose keys keep the order given.
  case object([(String, JSONValue)])

  /// `value` as a string, or `null` when it is `nil`.
  public static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// `value` as a number, or `null` when it is `nil`.
  public static func optional(_ value: UInt64?) -> JSONValue {
    value.map(JSONValue.unsigned) ?? .null
  }

  /// The document as text: two-space indentation, one key or element per line.
  public func rendered() -> String {
    var output = ""
    write(to: &output, indent: 0)
    return output
  }

  /// The document on one line, without spaces: one object per line of `--json` output that
  /// streams (`query`, `tail`).
  public func renderedLine() -> String {
    var output = ""
    writeLine(to: &output)
    return output
  }

  private func writeLine(to output: inout String) {
    switch self {
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        element.writeLine(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        Self.quote(key, into: &output)
        output += ":"
        value.writeLine(to: &output)
      }
      output += "}"
    default:
      write(to: &output, indent: 0)
    }
  }

  private func write(to output: inout String, indent: Int) {
    let inner = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .unsigned(let value): output += String(value)
    case .double(let value) where value.isNaN: output += "\"NaN\""
    case .double(let value) where value.isInfinite:
      output += value < 0 ? "\"-Infinity\"" : "\"Infinity\""
    case .double(let value): output += String(value)
    case .string(let value): Self.quote(value, into: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "[\n"
      for (index, element) in elements.enumerated() {
        output += inner
        element.write(to: &output, indent: indent + 1)
        output += index + 1 < elements.count ? ",\n" : "\n"
      }
      output += closing + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      for (index, (key, value)) in members.enumerated() {
        output += inner
        Self.quote(key, into: &output)
        output += ": "
        value.write(to: &output, indent: indent + 1)
        output += index + 1 < members.count ? ",\n" : "\n"
      }
      output += closing + "}"
    }
  }

  /// Writes `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
  /// … or `\u00XX`. DEL and the C1 controls (U+007F to U+009F) are escaped too (`\u007f`,
  /// `\u0080` … `\u009f`): JSON allows them raw, but a terminal acts on them, and `--json`
  /// output is read on terminals too.
  static func quote(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
        let hex = String(control.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
