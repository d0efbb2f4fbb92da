/// `--signal logs|traces`: which of a spool's signals `query` and `tail` read.
enum SignalArgument: String, Sendable, Hashable, CaseIterable {
  /// The log records (`logs/`), the default.
  case logs
  /// The spans (`spans/`).
  case traces

  /// `--signal SIGNAL`.
  static let option = OptionSpec.value(
    "signal", valueName: "SIGNAL",
    help: "logs (the default) or traces: read the spool's spans instead of its log records.")

  /// The signal `command` names, if it names one.
  ///
  /// - Throws: ``UsageError`` for a signal the command does not read (`spans` is taken for
  ///   `traces`).
  static func parse(_ command: ParsedCommand) throws(UsageError) -> SignalArgument? {
    guard let text = command.value("signal") else { return nil }
    let name = text.lowercased()
    if name == "spans" { return .traces }
    guard let signal = SignalArgument(rawValue: name) else {
      throw UsageError(
        "--signal takes logs or traces, not '\(text)'", command: command.command)
    }
    return signal
  }
}
