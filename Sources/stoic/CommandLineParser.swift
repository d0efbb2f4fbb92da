/// The tool's commands, parsed from `argv`.
enum Command {
  case demo(directory: String?)
  case help
  case version

  func run() -> Int32 {
    switch self {
    case .demo(let directory): return DemoCommand(directory: directory).run()
    case .help:
      CommandLineParser.printUsage()
      return 0
    case .version:
      Console.line("stoic \(StoicVersion.current)")
      return 0
    }
  }
}

/// Parses the command line; unknown commands and flags are usage errors, never ignored.
enum CommandLineParser {
  static func parse(_ arguments: [String]) throws -> Command {
    guard let name = arguments.first else { return .help }
    var rest = ArraySlice(arguments.dropFirst())
    switch name {
    case "demo":
      var directory: String?
      while let flag = rest.popFirst() {
        switch flag {
        case "--directory":
          guard let value = rest.popFirst(), !value.hasPrefix("--") else {
            throw UsageError(message: "--directory needs a path")
          }
          directory = value
        default:
          throw UsageError(message: "unknown option '\(flag)' for 'demo'")
        }
      }
      return .demo(directory: directory)
    case "help", "--help", "-h":
      return .help
    case "version", "--version":
      return .version
    default:
      throw UsageError(message: "unknown command '\(name)'")
    }
  }

  static func printUsage() {
    Console.line(
      """
      usage: stoic <command> [options]

      commands:
        demo [--directory DIR]   Show crash-safe storage at work: write a file atomically,
                                 damage it, and read it back through the previous generation
                                 and quarantine. Uses a new temporary directory unless DIR
                                 is given.
        help                     Show this text.
        version                  Print the version.
      """)
  }
}

/// The tool's version.
enum StoicVersion {
  static let current = "0.1.0"
}
