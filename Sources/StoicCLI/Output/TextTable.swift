/// A table aligned for a terminal: a header row, columns padded to their widest cell and two
/// spaces apart, no trailing blanks, and optionally the last column word-wrapped to a width
/// with its continuation lines aligned under it.
public struct TextTable: Sendable {
  /// How a column's cells line up.
  public enum Alignment: Sendable {
    /// Text, names.
    case left
    /// Numbers, sizes.
    case right
  }

  /// One cell: its text and how to paint it.
  public struct Cell: Sendable, ExpressibleByStringLiteral {
    /// The text.
    public var text: String
    /// The paint, if any (applied after padding, so alignment ignores it).
    public var paint: Style.Paint?

    /// A cell.
    public init(_ text: String, _ paint: Style.Paint? = nil) {
      self.text = text
      self.paint = paint
    }

    /// A plain cell.
    public init(stringLiteral value: String) { self.init(value) }
  }

  /// The column titles, in order.
  public let titles: [String]
  /// Each column's alignment.
  public let alignments: [Alignment]
  /// The rows added so far.
  public private(set) var rows: [[Cell]] = []

  /// A table with `columns` (title and alignment).
  public init(_ columns: [(String, Alignment)]) {
    titles = columns.map(\.0)
    alignments = columns.map(\.1)
  }

  /// Adds a row; missing cells are empty, extra ones dropped.
  public mutating func add(_ cells: [Cell]) {
    var row = Array(cells.prefix(titles.count))
    while row.count < titles.count { row.append(Cell("")) }
    rows.append(row)
  }

  /// Adds a row of plain cells.
  public mutating func add(_ texts: [String]) {
    add(texts.map { Cell($0) })
  }

  /// The table's lines: the header (bold), then the rows. With `width`, the last column is
  /// word-wrapped so lines fit in it where the other columns leave room (at least 20
  /// characters).
  public func render(style: Style, indent: Int = 0, width: Int? = nil) -> [String] {
    let all = [titles.map { Cell($0, .bold) }] + rows
    var widths = titles.map { _ in 0 }
    for row in all {
      for (column, cell) in row.enumerated() {
        widths[column] = max(widths[column], cell.text.count)
      }
    }
    let lastStart = indent + widths.dropLast().reduce(0) { $0 + $1 + 2 }
    var wrapAt: Int?
    if let width, width - lastStart >= 20 { wrapAt = width - lastStart }
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    for row in all {
      var pieces: [String] = []
      for (column, cell) in row.enumerated() where column < row.count - 1 {
        let padding = String(repeating: " ", count: widths[column] - cell.text.count)
        let padded = alignments[column] == .right ? padding + cell.text : cell.text + padding
        pieces.append(cell.paint.map { style(padded, $0) } ?? padded)
      }
      let last = row[row.count - 1]
      let chunks = wrapAt.map { Self.wrap(last.text, width: $0) } ?? [last.text]
      for (number, chunk) in chunks.enumerated() {
        let painted = last.paint.map { style(chunk, $0) } ?? chunk
        let lead =
          number == 0
          ? margin + pieces.map { $0 + "  " }.joined()
          : String(repeating: " ", count: lastStart)
        lines.append(Self.trimmingTrailingSpaces(lead + painted))
      }
    }
    return lines
  }

  /// `text` split into lines of at most `width` characters at spaces (a longer word stands
  /// alone on its line).
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard text.count > width else { return [text] }
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.isEmpty ? [""] : lines
  }

  private static func trimmingTrailingSpaces(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}

extension String {
  /// The string padded with spaces to `width` characters (never cut).
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}

/// Sizes for people: `512 B`, `4.0 KiB`, `12.3 MiB`, `1.1 GiB`.
public enum ByteCount {
  /// `bytes` in the largest binary unit that keeps it at or above 1, one decimal.
  public static func describe(_ bytes: UInt64) -> String {
    guard bytes >= 1024 else { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }
}
