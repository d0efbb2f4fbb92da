/// A duration as the command line takes it (`--min-duration 250ms`): a number, whole or with
/// a fraction, and a unit: `ns`, `us` (or `µs`), `ms`, `s`, `m`, `h`.
enum DurationArgument {
  /// The units and their length in nanoseconds, longest name first where one ends another.
  static let units: [(String, Int64)] = [
    ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
    ("m", 60_000_000_000), ("h", 3_600_000_000_000),
  ]

  /// The nanoseconds `text` names, or `nil` for anything else (no unit, a negative number, a
  /// duration past 292 years).
  static func nanoseconds(_ text: String) -> Int64? {
    guard
      let (unit, scale) = units.filter({ text.hasSuffix($0.0) }).max(by: {
        $0.0.count < $1.0.count
      })
    else { return nil }
    let number = text.dropLast(unit.count)
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let wholeText = parts.first, !wholeText.isEmpty || parts.count == 2,
      (wholeText + (parts.count == 2 ? parts[1] : "")).allSatisfy({ $0.isASCII && $0.isNumber }),
      !(parts.count == 2 && parts[1].isEmpty)
    else { return nil }
    guard let whole = wholeText.isEmpty ? 0 : Int64(wholeText) else { return nil }
    let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: scale)
    guard !overflow else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      var place = scale
      for digit in parts[1] {
        place /= 10
        guard let value = digit.wholeNumberValue else { return nil }
        fraction += Int64(value) * place
      }
    }
    let (sum, sumOverflow) = wholeNanoseconds.addingReportingOverflow(fraction)
    return sumOverflow ? nil : sum
  }

  /// The `--NAME` option of `command` as nanoseconds, if given.
  ///
  /// - Throws: ``UsageError`` for a value that is not a duration.
  static func value(_ name: String, of command: ParsedCommand) throws(UsageError) -> Int64? {
    guard let text = command.value(name) else { return nil }
    guard let duration = nanoseconds(text) else {
      throw UsageError(
        "--\(name) takes a duration with its unit (500us, 250ms, 1.5s, 2m, 1h), not '\(text)'",
        command: command.command)
    }
    return duration
  }
}
