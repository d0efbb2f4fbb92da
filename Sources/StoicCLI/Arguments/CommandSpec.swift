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
