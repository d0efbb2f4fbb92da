/// What a workload's check found on a cut's copy: violations of what its library calls
/// claimed (empty when every claim held), and facts for the log (how much was claimed and
/// found).
///
/// Passed from the `verify` command to the suite as lines `violation: …` and `fact: …`.
package struct PowerCutVerdict: Sendable, Equatable {
  /// Each claim that did not hold, and anything else wrong: a store that does not open, a
  /// record that is not intact, a write refused after recovery.
  package var violations: [String] = []
  /// What was claimed and found.
  package var facts: [String] = []

  /// An empty verdict.
  package init() {}

  /// The most violations kept; the rest are counted (a control can miss thousands of
  /// records, each a violation).
  static let keptViolations = 20

  /// Adds a violation (or counts it, once ``keptViolations`` are kept).
  package mutating func add(_ violation: String) {
    if violations.count < Self.keptViolations {
      violations.append(violation)
    } else if violations.count == Self.keptViolations {
      violations.append("and more")
    }
  }

  /// Adds a violation unless `condition` holds.
  package mutating func require(_ condition: Bool, _ violation: @autoclosure () -> String) {
    if !condition { add(violation()) }
  }

  /// The verdict as lines.
  package var text: String {
    (violations.map { "violation: \($0)" } + facts.map { "fact: \($0)" }).map { $0 + "\n" }
      .joined()
  }

  /// Parses ``text``; other lines are ignored.
  package init(text: String) {
    for line in text.split(separator: "\n") {
      if line.hasPrefix("violation: ") {
        violations.append(String(line.dropFirst("violation: ".count)))
      } else if line.hasPrefix("fact: ") {
        facts.append(String(line.dropFirst("fact: ".count)))
      }
    }
  }
}
