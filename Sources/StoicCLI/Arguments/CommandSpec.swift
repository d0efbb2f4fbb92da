/// What a subcommand accepts and how it is described: the parser and the help text both come
/// from this one value, so they cannot disagree.
public struct CommandSpec: Sendable {
  /// The subcommand's name (`verify`).
  public let name: String
  /// One line for the command list.
  public let summary: String
  /// Its positional arguments, in order.
  public let arguments: [ArgumentSpec]
  /// Its options.
  public let options: [OptionSpec]
  /// Paragraphs for `stoic help COMMAND` after the options (exit codes, what it reads).
  public let details: String

  /// Declares a subcommand.
  public init(
    name: String, summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
    details: String = ""
  ) {
    self.name = name
    self.summary = summary
    self.arguments = arguments
    self.options = options
    self.details = details
  }

  /// The option named `name` (long form).
  public func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  /// The option whose one-letter form is `letter`.
  public func option(short letter: Character) -> OptionSpec? {
    options.first { $0.short == letter }
  }

  /// `stoic verify [options] PATH`.
  public var usage: String {
    var parts = ["stoic", name]
    if !options.isEmpty { parts.append("[options]") }
    for argument in arguments {
      parts.append(argument.optional ? "[\(argument.name)]" : argument.name)
    }
    return parts.joined(separator: " ")
  }
}

/// One positional argument a command takes (`PATH`, `COMMAND`).
public struct ArgumentSpec: Sendable, Hashable {
  /// The placeholder in usage and help.
  public let name: String
  /// Whether the command runs without it.
  public let optional: Bool
  /// One line for `stoic help COMMAND`.
  public let help: String

  /// Declares a positional argument.
  public init(_ name: String, optional: Bool = false, help: String) {
    self.name = name
    self.optional = optional
    self.help = help
  }
}

/// One option a command accepts: `--name`, or `--name VALUE` / `--name=VALUE`, with an optional
/// one-letter form (`-n VALUE`, `-f`).
public struct OptionSpec: Sendable, Hashable {
  /// The long name, without the dashes (`json`, `max-record-size`).
  public let name: String
  /// The one-letter form, without the dash, if any.
  public let short: Character?
  /// The placeholder of the value in help (`N`, `KIND`), or `nil` for a flag that takes none.
  public let valueName: String?
  /// Whether the option may be given more than once (each value is kept, in order).
  public let repeatable: Bool
  /// One line for `stoic help COMMAND`.
  public let help: String

  /// A flag: present or absent, no value.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, repeatable: false, help: help)
  }

  /// An option with a value.
  public static func value(
    _ name: String, short: Character? = nil, valueName: String, repeatable: Bool = false,
    help: String
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: valueName, repeatable: repeatable, help: help)
  }

  /// Whether the option takes a value.
  public var takesValue: Bool { valueName != nil }

  /// How the option is written in help: `-n, --lines N`.
  public var synopsis: String {
    var text = "--\(name)"
    if let valueName { text += " \(valueName)" }
    if let short { text = "-\(short), " + text }
    return text
  }
}
