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
