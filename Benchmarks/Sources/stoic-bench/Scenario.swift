/// One scenario of the benchmark issue.
protocol Scenario: Sendable {
  /// The scenario ID used in `--scenario` and in the JSON.
  var id: String { get }
  func run(in context: BenchContext) throws -> [BenchResult]
}
