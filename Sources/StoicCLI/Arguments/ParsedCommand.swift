/// A command line the parser accepted: the subcommand, its options and its positional
/// arguments.
public struct ParsedCommand: Sendable, Hashable {
  /// The subcommand's name.
  public let command: String
  /// The positional arguments, in order.
  public let arguments: [String]
  /// Every value given for each option, by long name, in order; a flag holds one empty string
  /// per time it was given.
  public let options: [String: [String]]

  /// A parsed command line.
  public init(command: String, arguments: [String], options: [String: [String]]) {
    self.command = command
    self.arguments = arguments
    self.options = options
  }

  /// Whether the flag or option `name` was given.
  public func flag(_ name: String) -> Bool {
    options[name] != nil
  }

  /// The value of option `name` (the last one given), if any.
  public func value(_ name: String) -> String? {
    options[name]?.last
  }

  /// Every value given for the repeatable option `name`, in order.
  public func values(_ name: String) -> [String] {
    options[name] ?? []
  }

  /// The positional argument at `index`, if it was given.
  public func argument(_ index: Int) -> String? {
    arguments.indices.contains(index) ? arguments[index] : nil
  }
}
