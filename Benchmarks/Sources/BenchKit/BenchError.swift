/// A failure that stops the benchmark, with a message for the terminal.
public struct BenchError: Error, CustomStringConvertible, Sendable {
  /// The message.
  public let description: String

  /// A failure saying `description`.
  public init(_ description: String) {
    self.description = description
  }
}
