import StoicCLI
import Testing

/// The command-line parser, on its own.
@Suite("argument parser")
struct ArgumentParserTests {
  static let spec = CommandSpec(
    name: "query",
    summary: "A command with every kind of option.",
    arguments: [
      ArgumentSpec("DIR", help: "A directory."),
      ArgumentSpec("MORE", optional: true, help: "More."),
    ],
    options: [
      .flag("json", help: "JSON."), .flag("follow", short: "f", help: "Follow."),
      .value("lines", short: "n", valueName: "N", help: "Lines."),
      .value("where", valueName: "KEY=VALUE", repeatable: true, help: "Filter."),
      .flag("help", short: "h", help: "Help."),
    ])

  static func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
    try ArgumentParser.parse(words, for: spec)
  }

  @Test("flags, values in both spellings, short forms and positional arguments")
  func accepted() throws {
    let parsed = try Self.parse([
      "--json", "dir", "--lines", "5", "-f", "--where=a=b", "--where", "c=d",
    ])
    #expect(parsed.command == "query")
    #expect(parsed.arguments == ["dir"])
    #expect(parsed.flag("json"))
    #expect(parsed.flag("follow"))
    #expect(!parsed.flag("help"))
    #expect(parsed.value("lines") == "5")
    #expect(parsed.values("where") == ["a=b", "c=d"], "repeatable values kept in order")
    #expect(parsed.value("where") == "c=d")
    #expect(try Self.parse(["-n", "7", "d"]).value("lines") == "7")
    #expect(try Self.parse(["-n7", "d"]).value("lines") == "7")
    #expect(try Self.parse(["--lines=", "d"]).value("lines") == "", "an empty value is a value")
    #expect(try Self.parse(["d", "e"]).arguments == ["d", "e"], "the optional argument")
    #expect(try Self.parse(["d"]).argument(1) == nil)
  }

  @Test("a value is taken as given, even when it starts with a dash")
  func dashValues() throws {
    #expect(try Self.parse(["--lines", "-3", "d"]).value("lines") == "-3")
    #expect(try Self.parse(["--where", "--json", "d"]).values("where") == ["--json"])
    #expect(try Self.parse(["--where", "--json", "d"]).flag("json") == false)
  }

  /// Found by fuzzing (`cli-arguments`): the `=` of `--name=VALUE` and the letter of `-nVALUE`
  /// were looked for among characters, so a value starting with a combining mark (which joins
  /// the `=` or the letter into one character) made the option unknown.
  @Test("a value starting with a combining mark, in --name=VALUE and -nVALUE")
  func combiningMarkValues() throws {
    let value = "\u{301}5"
    #expect(try Self.parse(["--lines=\(value)", "d"]).value("lines") == value)
    #expect(try Self.parse(["-n\(value)", "d"]).value("lines") == value)
    #expect(try Self.parse(["--where=\u{5D}\u{301}", "d"]).value("where") == "\u{5D}\u{301}")
    // A word starting with two dashes names an option, whatever follows them.
    #expect(throws: UsageError.self) { try Self.parse(["--\u{301}json", "d"]) }
  }

  @Test("-- ends the options; a lone - is an argument")
  func endOfOptions() throws {
    let parsed = try Self.parse(["--json", "--", "--follow", "-n"])
    #expect(parsed.arguments == ["--follow", "-n"])
    #expect(parsed.flag("json"))
    #expect(!parsed.flag("follow"))
    #expect(try Self.parse(["-"]).arguments == ["-"])
  }

  @Test(
    "anything that does not fit is a usage error naming it",
    arguments: [
      (["--bogus", "d"], "unknown option '--bogus' for 'query'"),
      (["-x", "d"], "unknown option '-x' for 'query'"),
      (["-fh", "d"], "unknown option '-fh' for 'query'"),
      (["d", "--lines"], "option --lines needs a value (N)"),
      (["--json=1", "d"], "option --json takes no value"),
      (["--json", "--json", "d"], "option --json is given more than once"),
      (["-n", "1", "--lines=2", "d"], "option --lines is given more than once"),
      ([], "'query' needs DIR"),
      (["--json"], "'query' needs DIR"),
      (["a", "b", "c"], "unexpected argument 'c' for 'query'"),
      (["--", "a", "b", "--c"], "unexpected argument '--c' for 'query'"),
      (["--=x", "d"], "unknown option '--' for 'query'"),
    ])
  func refused(words: [String], message: String) {
    #expect(throws: UsageError(message, command: "query")) { try Self.parse(words) }
  }

  @Test("with --help the positional arguments are not required")
  func helpNeedsNoArguments() throws {
    #expect(try Self.parse(["--help"]).flag("help"))
    #expect(try Self.parse(["-h", "a", "b", "c"]).flag("help"))
  }

  @Test("the top level: help, version, commands, and each command's --help")
  func topLevel() throws {
    #expect(try StoicCommandLine.parse([]) == .help(nil))
    #expect(try StoicCommandLine.parse(["help"]) == .help(nil))
    #expect(try StoicCommandLine.parse(["help", "verify"]) == .help("verify"))
    #expect(try StoicCommandLine.parse(["--help"]) == .help(nil))
    #expect(try StoicCommandLine.parse(["verify", "--help"]) == .help("verify"))
    #expect(try StoicCommandLine.parse(["--version"]) == .version)
    #expect(try StoicCommandLine.parse(["version"]) == .version)
    let run = try StoicCommandLine.parse(["verify", "--json", "--max-record-size=4M", "dir"])
    #expect(
      run
        == .run(
          ParsedCommand(
            command: "verify", arguments: ["dir"],
            options: ["json": [""], "max-record-size": ["4M"]])))
    #expect(throws: UsageError("unknown command 'frob'")) { try StoicCommandLine.parse(["frob"]) }
    #expect(throws: UsageError("unknown option '--frob'")) {
      try StoicCommandLine.parse(["--frob"])
    }
    #expect(throws: UsageError("unknown command 'frob'")) {
      try StoicCommandLine.parse(["help", "frob"])
    }
  }

  @Test("every command's spec: unique option names and letters, help last")
  func specs() {
    for name in ["inspect", "verify", "compact", "events", "drain", "demo"] {
      guard let spec = StoicCommandLine.spec(named: name) else {
        Issue.record("no spec for \(name)")
        continue
      }
      #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(name)")
      let letters = spec.options.compactMap(\.short)
      #expect(Set(letters).count == letters.count, "\(name)")
      #expect(spec.options.last?.name == "help")
    }
  }
}
