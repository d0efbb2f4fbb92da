@testable import StoicCLI

/// The `stoic` command line's parser (`StoicCommandLine.parse`, `ArgumentParser`).
///
/// The input is the words of a command line, separated by NUL bytes. What must hold: a command
/// line it accepts names only options its command has, each once unless repeatable, with a
/// value exactly when the option takes one, and no more arguments than the command has; written
/// again in the long form (`--name=value`, then `--` and the arguments) it parses to the same
/// invocation. A `query` command line accepted goes on to its filters (`--since` and `--until`
/// through the time parser, `--level`, `--where`, `--limit`): they parse or are refused as a
/// usage error, never trap, and a time range they accept is not empty.
enum CommandLineTarget {
  static let target = FuzzTarget(
    name: "cli-arguments",
    summary: "stoic command lines: parse, check against the spec, write long form, parse the same",
    maxLength: 1024,
    run: { bytes in
      let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard let invocation = try? StoicCommandLine.parse(words) else { return }
      let written: [String]
      switch invocation {
      case .help(let name):
        written = ["help"] + (name.map { [$0] } ?? [])
      case .version:
        written = ["version"]
      case .run(let parsed):
        guard let spec = StoicCommandLine.spec(named: parsed.command) else {
          FuzzCheck.fail("a command line runs an unknown command \(parsed.command)")
        }
        check(parsed, against: spec)
        if parsed.command == QueryCommand.spec.name { checkFilters(parsed) }
        written = write(parsed, spec)
      }
      guard let again = try? StoicCommandLine.parse(written) else {
        FuzzCheck.fail("an accepted command line, written in the long form, is refused")
      }
      FuzzCheck.require(again == invocation, "a command line written in the long form changed")
    },
    seeds: {
      [
        ["inspect", "--json", "/var/lib/app/spool"],
        ["verify", "--as", "journal", "--max-record-size=1024", "--", "-odd"],
        ["compact", "--help"],
        ["events", "--json"],
        ["help", "inspect"],
        ["--version"],
        ["demo", "/tmp/demo", "extra"],
        ["query", "--since", "2026-12-01", "--until=2262-04-11T23:47:16.854775807Z", "spool"],
        ["query", "--since=99999999d", "--until", "1677-09-22", "--level", "info", "s"],
        ["query", "--until", "2h", "--where", "http.status=500", "-n", "3", "s"],
      ].map { Array($0.joined(separator: "\0").utf8) }
    })

  static func check(_ parsed: ParsedCommand, against spec: CommandSpec) {
    FuzzCheck.require(
      parsed.arguments.count <= spec.arguments.count, "more arguments than \(spec.name) has")
    for (name, values) in parsed.options {
      guard let option = spec.options.first(where: { $0.name == name }) else {
        FuzzCheck.fail("option --\(name) is not one of \(spec.name)'s")
      }
      FuzzCheck.require(
        values.count == 1 || (option.repeatable && !values.isEmpty),
        "option --\(name) given \(values.count) times")
      if !option.takesValue {
        FuzzCheck.require(values.allSatisfy(\.isEmpty), "flag --\(name) has a value")
      }
    }
  }

  /// A `query` command line's filters parse or are refused as a usage error.
  static func checkFilters(_ parsed: ParsedCommand) {
    for now in QueryTimeTarget.clocks {
      guard let query = try? QueryCommand.query(parsed, now: now) else { continue }
      if let since = query.since, let until = query.until {
        FuzzCheck.require(since < until, "a query accepts an empty time range")
      }
    }
  }

  /// `parsed` in the long form: the command, every option as `--name` or `--name=value` in the
  /// spec's order, then `--` and the arguments.
  static func write(_ parsed: ParsedCommand, _ spec: CommandSpec) -> [String] {
    var words = [parsed.command]
    for option in spec.options {
      for value in parsed.values(option.name) {
        words.append(option.takesValue ? "--\(option.name)=\(value)" : "--\(option.name)")
      }
    }
    return words + ["--"] + parsed.arguments
  }
}
