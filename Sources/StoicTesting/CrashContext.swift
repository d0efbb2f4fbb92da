/// What ``CrashExplorer``'s `check` sees about one crash image: where the crash happened,
/// what had been acknowledged by then, and which pending operations the image kept.
public struct CrashContext: Sendable, CustomStringConvertible {
  /// The crash happened after this many operations of the explored operation (0 is the
  /// settled disk before its first operation). For a crashed recovery, the crash point of the
  /// image recovery started from.
  public let crashPoint: Int
  /// The number of operations the explored operation performed: crash points run from 0 to
  /// this.
  public let totalPoints: Int
  /// The acknowledgements recorded at or before the crash point, in order: what must be there.
  public let acknowledged: [String]
  /// Every acknowledgement the full run recorded, in order: what could be there.
  public let attempted: [String]
  /// A replayable description of the image: for every pending operation, whether the crash
  /// lost it, kept it, tore it (and after how many bytes) or garbled it (and with which seed).
  /// Built when read.
  public var image: String { imageText.text }
  /// Builds ``image``.
  let imageText: LazyText
  /// True when this image comes from crashing recovery.
  public let duringRecovery: Bool
  /// For a crashed recovery: the crash happened after this many of recovery's operations.
  public let recoveryCrashPoint: Int?
  /// For a crashed recovery: the number of operations recovery performed.
  public let recoveryTotalPoints: Int?
  /// Which image of the exploration this is, for exploring it alone again (see
  /// ``CrashReplay``); `nil` for a context a test made itself.
  public let replay: CrashReplay?
  /// The budget's environment variables (seed and images per crash point) that, with
  /// ``replay``, rebuild this image.
  let budgetEnvironment: String?

  /// The environment variables that explore this image alone again, for example
  /// `STOIC_CRASH_SEED=0x5701C STOIC_CRASH_BUDGET=2000 STOIC_CRASH_REPLAY=12:7`, or `nil` for
  /// a context a test made itself.
  public var replayEnvironment: String? {
    guard let replay, let budgetEnvironment else { return nil }
    return "\(budgetEnvironment) STOIC_CRASH_REPLAY=\(replay)"
  }

  /// Creates a context (the explorer does; tests of a `check` function may too).
  public init(
    crashPoint: Int,
    totalPoints: Int,
    acknowledged: [String],
    attempted: [String],
    image: String,
    duringRecovery: Bool = false,
    recoveryCrashPoint: Int? = nil,
    recoveryTotalPoints: Int? = nil
  ) {
    self.crashPoint = crashPoint
    self.totalPoints = totalPoints
    self.acknowledged = acknowledged
    self.attempted = attempted
    self.imageText = LazyText(image)
    self.duringRecovery = duringRecovery
    self.recoveryCrashPoint = recoveryCrashPoint
    self.recoveryTotalPoints = recoveryTotalPoints
    self.replay = nil
    self.budgetEnvironment = nil
  }

  /// Creates a context whose image description is built when read.
  init(
    crashPoint: Int, totalPoints: Int, acknowledged: [String], attempted: [String],
    imageText: LazyText, duringRecovery: Bool = false, recoveryCrashPoint: Int? = nil,
    recoveryTotalPoints: Int? = nil, replay: CrashReplay? = nil, budgetEnvironment: String? = nil
  ) {
    self.replay = replay
    self.budgetEnvironment = budgetEnvironment
    self.crashPoint = crashPoint
    self.totalPoints = totalPoints
    self.acknowledged = acknowledged
    self.attempted = attempted
    self.imageText = imageText
    self.duringRecovery = duringRecovery
    self.recoveryCrashPoint = recoveryCrashPoint
    self.recoveryTotalPoints = recoveryTotalPoints
  }

  /// A violation of the check at this image, of kind ``CrashViolation/Kind/wrongState``, to
  /// throw from `check`.
  public func violation(_ message: String) -> CrashViolation {
    violation(.wrongState, message)
  }

  /// A violation of the check at this image, of `kind`, to throw from `check`.
  public func violation(_ kind: CrashViolation.Kind, _ message: String) -> CrashViolation {
    CrashViolation(context: self, kind: kind, message: message)
  }

  /// Throws a violation of kind ``CrashViolation/Kind/wrongState`` with `message` unless
  /// `condition` holds.
  ///
  /// - Throws: ``CrashViolation`` at this image when `condition` is false.
  public func require(_ condition: Bool, _ message: @autoclosure () -> String)
    throws(CrashViolation)
  {
    if !condition { throw violation(.wrongState, message()) }
  }

  /// Throws a violation of `kind` with `message` unless `condition` holds.
  ///
  /// - Throws: ``CrashViolation`` at this image when `condition` is false.
  public func require(
    _ condition: Bool, _ kind: CrashViolation.Kind, _ message: @autoclosure () -> String
  ) throws(CrashViolation) {
    if !condition { throw violation(kind, message()) }
  }

  /// `crash point 3 of 7` (and the recovery crash point), the acknowledgements and the image.
  public var description: String {
    var text = "crash point \(crashPoint) of \(totalPoints)"
    if let recoveryCrashPoint, let recoveryTotalPoints {
      text += ", then recovery crash point \(recoveryCrashPoint) of \(recoveryTotalPoints)"
    }
    text += " (acknowledged: \(acknowledged)); image: \(image)"
    if let replayEnvironment { text += "; replay: \(replayEnvironment)" }
    return text
  }
}
