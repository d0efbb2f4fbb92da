/// One target from the benchmark issue, checked against the measured medians.
struct TargetCheck {
  enum Comparison {
    /// The value must be at least the threshold.
    case atLeast
    /// The value must be at most the threshold.
    case atMost
  }

  /// What the target says, e.g. `stoic ≥ 30× sqlite-normal`.
  let label: String
  let value: Double
  let threshold: Double
  let comparison: Comparison
  /// The unit printed after the value (`×`, ` GB/s`, ` MiB`).
  let unit: String

  var passed: Bool {
    switch comparison {
    case .atLeast: value >= threshold
    case .atMost: value <= threshold
    }
  }

  /// A ratio target: `stoic / peer ≥ threshold`.
  static func ratio(_ stoic: Double, over peer: Double, atLeast threshold: Double, label: String)
    -> TargetCheck
  {
    TargetCheck(
      label: label, value: stoic / peer, threshold: threshold, comparison: .atLeast, unit: "×")
  }
}
