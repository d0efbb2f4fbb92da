import StoicStore

/// The `stoic` tool: parses the command line, runs the command, and returns the exit status.
/// The executable is a thin `main` over ``main(_:environment:)``.
public enum StoicCommandLine {
  /// The commands, in the order help lists them.
  static let commands: [any StoicCommand.Type] = [
    InspectCommand.self, VerifyCommand.self, QueryCommand.self, TailCommand.self, TraceCommand.self,
    CompactCommand.self, EventsCommand.self, DrainCommand.self, DemoCommand.self,
  ]

  /// `stoic help [COMMAND]`.
  static let helpSpec = CommandSpec(
    name: "help", summary: "Show the commands, or one command's arguments and options.",
    arguments: [ArgumentSpec("COMMAND", optional: true, help: "The command to describe.")])

  /// `stoic version` (also `stoic --version`).
  static let versionSpec = CommandSpec(
    name: "version", summary: "Print the version (also --version).")

  /// What a command line asks for.
  public enum Invocation: Sendable, Hashable {
    /// The command list (`nil`) or one command's help.
    case help(String?)
    /// The version.
    case version
    /// A command to run.
    case run(ParsedCommand)
  }

  /// The spec of the command named `name`, with `-h, --help` added (help and version
  /// included).
  public static func spec(named name: String) -> CommandSpec? {
    if name == helpSpec.name { return helpSpec }
    if name == versionSpec.name { return versionSpec }
    guard let spec = commands.first(where: { $0.spec.name == name })?.spec else { return nil }
    return CommandSpec(
      name: spec.name, summary: spec.summary, arguments: spec.arguments,
      options: spec.options + [CommonOptions.help], details: spec.details)
  }

  /// Parses a command line (without the program's name).
  ///
  /// - Throws: ``UsageError`` for an unknown command or option, a missing or extra argument.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    guard let first = arguments.first else { return .help(nil) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "help", "--help", "-h":
      let parsed = try ArgumentParser.parse(rest, for: helpSpec)
      guard let name = parsed.argument(0) else { return .help(nil) }
      guard spec(named: name) != nil else { throw UsageError("unknown command '\(name)'") }
      return .help(name)
    case "version", "--version":
      _ = try ArgumentParser.parse(rest, for: versionSpec)
      return .version
    default:
      guard let spec = spec(named: first) else {
        throw UsageError(
          first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'")
      }
      let parsed = try ArgumentParser.parse(rest, for: spec)
      return parsed.flag("help") ? .help(spec.name) : .run(parsed)
    }
  }

  /// Runs the tool: parses `arguments`, runs the command, prints what it has to say, and
  /// returns the exit status (see ``ExitStatus``).
  @MainActor
  public static func main(_ arguments: [String], environment: [String: String]) async -> Int32 {
    let console = Console(terminal: .current(environment: environment))
    defer { console.flush() }
    var command: String?
    do {
      switch try parse(arguments) {
      case .help(nil):
        console.lines(HelpText.overview())
      case .help(let name?):
        if let spec = spec(named: name) { console.lines(HelpText.help(for: spec)) }
      case .version:
        console.line("stoic \(StoicVersion.current)")
      case .run(let parsed):
        command = parsed.command
        guard let runner = commands.first(where: { $0.spec.name == parsed.command }) else {
          return ExitStatus.usage.code
        }
        return try await runner.run(parsed, console: console).code
      }
      return ExitStatus.success.code
    } catch let error as UsageError {
      console.error("stoic: \(error.message)")
      if let name = error.command ?? command, let spec = spec(named: name) {
        for line in HelpText.usageLines(for: spec) { console.error(line) }
        console.error("Run 'stoic help \(name)' for usage.")
      } else {
        console.error("usage: stoic <command> [options] [arguments]")
        console.error("Run 'stoic help' for usage.")
      }
      return ExitStatus.usage.code
    } catch let failure as CommandFailure {
      console.error("stoic\(command.map { " \($0)" } ?? ""): \(failure.message)")
      return failure.status.code
    } catch let error as StoreError {
      console.error("stoic\(command.map { " \($0)" } ?? ""): \(error.message)")
      return ExitStatus.unreadable.code
    } catch {
      console.error("stoic\(command.map { " \($0)" } ?? ""): \(error)")
      return ExitStatus.damage.code
    }
  }
}

/// The tool's version.
public enum StoicVersion {
  /// `0.1.0`.
  public static let current = "0.1.0"
}
