/// A command line the tool cannot act on: an unknown command or option, a missing or extra
/// argument, a value that does not parse. The tool prints it with the usage and exits 64.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One sentence naming what is wrong.
  public let message: String
  /// The subcommand whose usage applies, if one was recognised.
  public let command: String?

  /// A usage error.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message.
  public var description: String { message }
}
