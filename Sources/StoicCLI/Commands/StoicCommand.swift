/// A subcommand of `stoic`: its ``CommandSpec`` (which the parser and the help text both use)
/// and what it does.
protocol StoicCommand: Sendable {
  /// What the command accepts and how it is described.
  static var spec: CommandSpec { get }

  /// Runs the command.
  ///
  /// - Returns: The status to exit with.
  /// - Throws: ``UsageError`` for a value that does not parse (exit 64), ``CommandFailure``
  ///   for a command that cannot go on (its status).
  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus
}
