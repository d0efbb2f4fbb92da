/// The outcome of ``CrashExplorer/explore(setup:operation:recover:check:)``.
public struct CrashReport: Sendable, CustomStringConvertible {
  /// The number of crash points explored: the operations performed plus one (point 0).
  public let crashPoints: Int
  /// The number of crash images recovered and checked, crashed recoveries included.
  public let imagesChecked: Int
  /// Every failed image, in exploration order.
  public let violations: [CrashViolation]
  /// Of ``imagesChecked``, the images that came from crashing recovery.
  public let recoveryImagesChecked: Int
  /// What the explored operation threw, if it threw (recorded, not a violation).
  public let operationError: String?

  /// Creates a report.
  public init(
    crashPoints: Int,
    imagesChecked: Int,
    violations: [CrashViolation],
    recoveryImagesChecked: Int = 0,
    operationError: String? = nil
  ) {
    self.crashPoints = crashPoints
    self.imagesChecked = imagesChecked
    self.violations = violations
    self.recoveryImagesChecked = recoveryImagesChecked
    self.operationError = operationError
  }

  /// True when no image failed.
  public var passed: Bool { violations.isEmpty }

  /// The kinds of the violations found: what kinds of promise the crash images broke.
  public var violationKinds: Set<CrashViolation.Kind> { Set(violations.map(\.kind)) }

  /// The crash points that failed at least once, sorted.
  public var failingCrashPoints: [Int] {
    Set(violations.map(\.context.crashPoint)).sorted()
  }

  /// Counts, then the first few violations.
  public var description: String {
    var text =
      "\(crashPoints) crash points, \(imagesChecked) images checked"
      + " (\(recoveryImagesChecked) from crashed recovery), \(violations.count) violations"
    if let operationError { text += "; the operation threw: \(operationError)" }
    for violation in violations.prefix(5) {
      text += "\n- \(violation)"
    }
    if violations.count > 5 { text += "\n- … and \(violations.count - 5) more" }
    return text
  }
}
