/// One image of an exploration, named so that it can be explored alone again: its crash
/// point and its index among that point's images, and for a crashed recovery the recovery's
/// crash point and the index among its images.
///
/// With the same seed and ``CrashBudget/imagesPerCrashPoint``, the same operation gives the
/// same images in the same order, so these four numbers rebuild exactly the disk a violation
/// was found on. Every ``CrashViolation`` prints its replay as environment variables, for
/// example `STOIC_CRASH_SEED=0x5701C STOIC_CRASH_BUDGET=2000 STOIC_CRASH_REPLAY=12:7`; run the
/// one test again with them and the explorer checks that image only.
public struct CrashReplay: Sendable, Hashable, CustomStringConvertible {
  /// The crash point of the operation (0 through its number of operations).
  public var crashPoint: Int
  /// The image's index among the crash point's images, 1 for the first.
  public var image: Int
  /// For a crashed recovery: the crash point of the recovery, 1 or more.
  public var recoveryCrashPoint: Int?
  /// For a crashed recovery: the image's index among that recovery crash point's images.
  public var recoveryImage: Int?

  /// Names the `image`th image of `crashPoint` and, when both are given, the
  /// `recoveryImage`th image of the recovery crashed at `recoveryCrashPoint`.
  public init(
    crashPoint: Int, image: Int, recoveryCrashPoint: Int? = nil, recoveryImage: Int? = nil
  ) {
    self.crashPoint = crashPoint
    self.image = image
    self.recoveryCrashPoint = recoveryCrashPoint
    self.recoveryImage = recoveryImage
  }

  /// Parses ``description``'s form: `point:image`, or `point:image/recoveryPoint:recoveryImage`
  /// for a crashed recovery. Nil for anything else, and for a negative point or an index
  /// below 1.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2,
      let main = Self.pair(parts[0]), main.point >= 0
    else { return nil }
    self.init(crashPoint: main.point, image: main.image)
    if parts.count == 2 {
      guard let recovery = Self.pair(parts[1]), recovery.point >= 1 else { return nil }
      recoveryCrashPoint = recovery.point
      recoveryImage = recovery.image
    }
  }

  /// `12:7`, or `12:7/3:2` for the second image of the recovery crashed after 3 operations.
  public var description: String {
    var text = "\(crashPoint):\(image)"
    if let recoveryCrashPoint, let recoveryImage {
      text += "/\(recoveryCrashPoint):\(recoveryImage)"
    }
    return text
  }

  /// `point:index`, with an index of 1 or more.
  private static func pair(_ text: Substring) -> (point: Int, image: Int)? {
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2, let point = Int(fields[0]), let image = Int(fields[1]), image >= 1
    else { return nil }
    return (point, image)
  }
}
