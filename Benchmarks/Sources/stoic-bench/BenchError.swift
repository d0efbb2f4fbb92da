/// A failure that stops the benchmark, with a message for the terminal.
struct BenchError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
