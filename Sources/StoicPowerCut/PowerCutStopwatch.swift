/// Times the steps of a cut, for the log.
struct PowerCutStopwatch {
  private var last = ContinuousClock.now
  private var steps: [String] = []

  /// Ends a step named `name`.
  mutating func lap(_ name: String) {
    let now = ContinuousClock.now
    let elapsed = now - last
    let milliseconds =
      elapsed.components.seconds * 1000
      + elapsed.components.attoseconds / 1_000_000_000_000_000
    steps.append("\(name) \(milliseconds) ms")
    last = now
  }

  /// The steps so far: `first claim 120 ms, cut moment 230 ms, …`.
  var laps: String { steps.joined(separator: ", ") }
}
