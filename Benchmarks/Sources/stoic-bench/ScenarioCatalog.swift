/// The scenarios in the order they run, and the ones that wait for layers not built yet.
enum ScenarioCatalog {
  static let scenarios: [any Scenario] =
    [LogCallScenario(), GroupCommitScenario(), ConcurrentDurableScenario()]
    + ReplayScenario.all + [CompactionScenario(), BacklogScenario()]
    + [LogRecordScenario(), LogDurableScenario(), MetricIncrementScenario()]

  /// Scenarios of the issue that need layers that do not exist yet: reported, never measured.
  /// Each becomes a ``Scenario`` in ``scenarios`` (its ID kept for `--json`) once its layer is
  /// in the package: `forwarding` needs the forwarder that drains a telemetry spool into an
  /// OTLP receiver (the example collector exists), `query` the `stoic query` command.
  static let unavailable: [(id: String, reason: String)] = [
    (
      "forwarding",
      "not yet available: needs the spool forwarder (spool to OTLP, into the example collector)"
    ),
    ("query", "not yet available: needs the `stoic query` command"),
  ]

  static var ids: [String] { scenarios.map(\.id) + unavailable.map(\.id) }

  /// The scenarios a run measures. `--quick` leaves out the 1 GiB replay unless it is asked for
  /// by name.
  static func selected(_ options: BenchOptions) -> [any Scenario] {
    if let id = options.scenario { return scenarios.filter { $0.id == id } }
    if options.quick { return scenarios.filter { $0.id != "replay-1GiB" } }
    return scenarios
  }
}
