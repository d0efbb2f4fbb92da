/// What one cut did and found.
package struct PowerCutOutcome: Sendable {
  /// The cut's number within its workload and file system.
  package let index: Int
  /// The seed of its moment and of the workload's choices.
  package let seed: UInt64
  /// How long after the workload's first claim the power was cut.
  package let delayMilliseconds: Int
  /// How many claims the workload had made by then.
  package let claims: Int
  /// What the check found.
  package let verdict: PowerCutVerdict
  /// Where the image and acknowledgement file were kept (a failing cut of real code).
  package let kept: String?
  /// The one command that checks the kept image again.
  package let replayCommand: String?
  /// How long each step took: `first claim 120 ms, cut moment 230 ms, …`.
  package let timings: String

  /// Whether a claim did not hold (for a control: whether it lost something, as it must).
  package var lost: Bool { !verdict.violations.isEmpty }

  /// One line for the log.
  package var summary: String {
    let seedText = "0x" + String(seed, radix: 16)
    let found = (verdict.violations.prefix(3) + verdict.facts).joined(separator: "; ")
    return "cut \(index) (seed \(seedText), \(delayMilliseconds) ms after the first claim, "
      + "\(claims) claims): \(found)"
  }
}
