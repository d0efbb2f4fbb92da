/// The outcome of ``CrashExplorer/explore(setup:operation:recover:check:fileID:function:)``.
public struct CrashReport: Sendable, CustomStringConvertible {
  /// The number of crash points of the operation: the operations performed plus one (point
  /// 0).
  public let crashPoints: Int
  /// The number of crash images recovered and checked, crashed recoveries included: the
  /// distinct ones (an image equal to one already checked with the same acknowledgements is
  /// counted in ``equalImagesSkipped`` instead).
  public let imagesChecked: Int
  /// Every failed image, in exploration order.
  public let violations: [CrashViolation]
  /// Of ``imagesChecked``, the images that came from crashing recovery.
  public let recoveryImagesChecked: Int
  /// What the explored operation threw, if it threw (recorded, not a violation).
  public let operationError: String?
  /// How many of the ``crashPoints`` had at least one image checked or found equal to one
  /// checked: all of them unless a deadline stopped the first round.
  public let crashPointsVisited: Int
  /// Images built but not recovered, because a disk equal to theirs with the same
  /// acknowledgements had been checked already (at another crash point, or at the same
  /// recovery crash point of another image): recovering it again could not tell anything new.
  public let equalImagesSkipped: Int
  /// How many crash points of recoveries were explored: one per operation of each recovery
  /// that was crashed.
  public let recoveryCrashPointsExplored: Int
  /// Whether the budget's deadline (``CrashBudget/seconds``) stopped the exploration before
  /// it had every image the count allows.
  public let stoppedAtDeadline: Bool
  /// How long the exploration took, recording the operation included.
  public let elapsed: Duration
  /// How long after the start the first violation was found, or `nil` when none was: a
  /// mutation check's time to detection.
  public let firstViolationAfter: Duration?

  /// Creates a report.
  public init(
    crashPoints: Int,
    imagesChecked: Int,
    violations: [CrashViolation],
    recoveryImagesChecked: Int = 0,
    operationError: String? = nil,
    crashPointsVisited: Int? = nil,
    equalImagesSkipped: Int = 0,
    recoveryCrashPointsExplored: Int = 0,
    stoppedAtDeadline: Bool = false,
    elapsed: Duration = .zero,
    firstViolationAfter: Duration? = nil
  ) {
    self.crashPoints = crashPoints
    self.imagesChecked = imagesChecked
    self.violations = violations
    self.recoveryImagesChecked = recoveryImagesChecked
    self.operationError = operationError
    self.crashPointsVisited = crashPointsVisited ?? crashPoints
    self.equalImagesSkipped = equalImagesSkipped
    self.recoveryCrashPointsExplored = recoveryCrashPointsExplored
    self.stoppedAtDeadline = stoppedAtDeadline
    self.elapsed = elapsed
    self.firstViolationAfter = firstViolationAfter
  }

  /// True when no image failed.
  public var passed: Bool { violations.isEmpty }

  /// Every image the exploration built: the distinct ones it checked and the equal ones it
  /// skipped.
  public var imagesBuilt: Int { imagesChecked + equalImagesSkipped }

  /// The kinds of the violations found: what kinds of promise the crash images broke.
  public var violationKinds: Set<CrashViolation.Kind> { Set(violations.map(\.kind)) }

  /// The crash points that failed at least once, sorted.
  public var failingCrashPoints: [Int] {
    Set(violations.map(\.context.crashPoint)).sorted()
  }

  /// Counts, then the first few violations.
  public var description: String {
    var text =
      "\(crashPointsVisited) of \(crashPoints) crash points visited, \(imagesBuilt) images"
      + " (\(imagesChecked) distinct checked, \(recoveryImagesChecked) of them from"
      + " \(recoveryCrashPointsExplored) recovery crash points), \(violations.count) violations"
      + " in \(Self.seconds(elapsed)) s"
    if stoppedAtDeadline { text += ", stopped at the deadline" }
    if let firstViolationAfter {
      text += ", first violation after \(Self.seconds(firstViolationAfter)) s"
    }
    if let operationError { text += "; the operation threw: \(operationError)" }
    for violation in violations.prefix(5) {
      text += "\n- \(violation)"
    }
    if violations.count > 5 { text += "\n- … and \(violations.count - 5) more" }
    return text
  }

  /// A duration in seconds with three decimals.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds &* 1000
      &+ duration.components.attoseconds / 1_000_000_000_000_000
    let whole = milliseconds / 1000
    let fraction = String(milliseconds % 1000)
    return "\(whole)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
