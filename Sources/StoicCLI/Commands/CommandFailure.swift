/// A command that cannot go on: the one line to print and the status to exit with.
public struct CommandFailure: Error, Sendable, Hashable {
  /// The exit status.
  public let status: ExitStatus
  /// One line for standard error (without the `stoic:` prefix).
  public let message: String

  /// A failure.
  public init(_ status: ExitStatus, _ message: String) {
    self.status = status
    self.message = message
  }
}
