import StoicStore

extension TerminalText {
  /// `line` with its control characters escaped (backslashes kept as they are), but for the
  /// exact colour sequences ``Style`` writes when `keepingStyle`.
  static func controlsEscaped(_ line: String, keepingStyle: Bool) -> String {
    guard line.utf8.contains(where: needsEscape) else { return line }
    var output = ""
    output.reserveCapacity(line.utf8.count + 8)
    let scalars = Array(line.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if keepingStyle, scalars[index] == "\u{1B}", let length = styleSequence(scalars, at: index) {
        output.unicodeScalars.append(contentsOf: scalars[index..<(index + length)])
        index += length
        continue
      }
      append(scalars[index], to: &output)
      index += 1
    }
    return output
  }

  /// The length of the ``Style`` sequence (`ESC [ code m`) at `index`, if one is there.
  private static func styleSequence(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
    for code in Style.codes {
      let sequence = Array("\u{1B}[\(code)m".unicodeScalars)
      if index + sequence.count <= scalars.count,
        scalars[index..<(index + sequence.count)].elementsEqual(sequence)
      {
        return sequence.count
      }
    }
    return nil
  }
}
