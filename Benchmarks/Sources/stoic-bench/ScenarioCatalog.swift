/// The scenarios in the order they run.
enum ScenarioCatalog {
  static let scenarios: [any Scenario] =
    [LogCallScenario(), GroupCommitScenario(), ConcurrentDurableScenario()]
    + ReplayScenario.all + [CompactionScenario(), BacklogScenario()]
    + [LogRecordScenario(), LogDurableScenario(), MetricIncrementScenario(), SpanRecordScenario()]
    + [ForwardingScenario(), QueryScenario()]
    + [PeakRSSScenario(), OpenAfterCrashScenario(), PipelineScenario(), ScaleScenario()]

  /// Scenarios of the issue that need layers that do not exist yet: reported, never measured.
  static let unavailable: [(id: String, reason: String)] = []

  static var ids: [String] { scenarios.map(\.id) + unavailable.map(\.id) }

  /// The scenarios a run measures. `--quick` leaves out the 1 GiB replay, and a run without
  /// `--large` the 10 GiB spool of `scale`, unless asked for by name.
  static func selected(_ options: BenchOptions, large: Bool) -> [any Scenario] {
    if let id = options.scenario { return scenarios.filter { $0.id == id } }
    let sized = large ? scenarios : scenarios.filter { $0.id != "scale" }
    if options.quick { return sized.filter { $0.id != "replay-1GiB" } }
    return sized
  }
}
