/// The options several commands share, declared once.
enum CommonOptions {
  /// `--json`: one JSON document on standard output instead of the table.
  static let json = OptionSpec.flag(
    "json", help: "Print one JSON document instead of the table (for scripts).")
  /// `--utc`: times in UTC.
  static let utc = OptionSpec.flag(
    "utc", help: "Show times in UTC (the default is the local time zone).")
  /// `--as KIND`: what the path holds, when the tool should not guess.
  static let kind = OptionSpec.value(
    "as", valueName: "KIND",
    help: "Read PATH as a journal, outbox, collector, atomic-file (settings) or spool instead "
      + "of telling it from its files.")
  /// `--max-record-size BYTES`: the journal's largest record.
  static let maxRecordSize = OptionSpec.value(
    "max-record-size", valueName: "BYTES",
    help: "The largest record the journal's writer allows (JournalOptions.maxRecordSize; "
      + "default 1M). Suffixes K, M and G count in 1024s.")
  /// `-h, --help`, added to every command.
  static let help = OptionSpec.flag("help", short: "h", help: "Show this help.")

  /// The kind `--as` names, if given.
  ///
  /// - Throws: ``UsageError`` for a kind the tool does not know.
  static func kind(_ command: ParsedCommand) throws(UsageError) -> StoreKind? {
    guard let text = command.value("as") else { return nil }
    guard let kind = StoreKind(argument: text) else {
      let known = StoreKind.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("unknown store kind '\(text)' (known: \(known))", command: command.command)
    }
    return kind
  }

  /// The `--max-record-size` given, or the library's default (1 MiB).
  ///
  /// - Throws: ``UsageError`` for a size that does not parse or is outside 1 B ... 1 GiB.
  static func maxRecordSize(_ command: ParsedCommand) throws(UsageError) -> Int {
    guard let text = command.value("max-record-size") else { return 1 << 20 }
    guard let size = parseSize(text), size >= 1, size <= 1 << 30 else {
      throw UsageError(
        "--max-record-size takes a size from 1 to 1G (bytes, or with K, M or G), not '\(text)'",
        command: command.command)
    }
    return size
  }

  /// `4096`, `64K`, `1M`, `1G` (counting in 1024s), or `nil`.
  static func parseSize(_ text: String) -> Int? {
    let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text)
    var multiplier = 1
    if let last = text.last?.uppercased().first, let factor = multipliers[last] {
      multiplier = factor
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0
    else { return nil }
    let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : product
  }

  /// Finds the store `command`'s first argument names (with `--as`) and examines it as
  /// `verify` and `inspect` do, with the progress line on `console`.
  ///
  /// - Throws: ``UsageError`` for a bad `--as` or `--max-record-size`, ``CommandFailure`` for a
  ///   path that is not a store.
  @MainActor
  static func examine(_ command: ParsedCommand, console: Console, permissions: Bool)
    async throws -> StoreExamination
  {
    let kind = try kind(command)
    let maxRecordSize = try maxRecordSize(command)
    let location = try StoreLocation.locate(command.argument(0) ?? "", as: kind)
    let examination = await StoreExamination.run(
      location, maxRecordSize: maxRecordSize, permissions: permissions,
      progress: console.progress)
    console.progress.clear()
    return examination
  }
}
