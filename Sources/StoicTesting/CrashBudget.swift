#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How hard ``CrashExplorer`` looks: how many crash images per crash point are enumerated
/// exhaustively before it samples them with a fixed seed, for how long, and whether recovery
/// is crashed too.
///
/// When every image the model allows at a crash point fits in ``imagesPerCrashPoint``, all of
/// them are checked (with every tear point of every write when those fit too). Otherwise the
/// explorer checks the durable-only image, the everything-kept image, and a sample drawn with a
/// SplitMix64 generator seeded from ``seed``, so a run is reproducible.
///
/// The explorer takes the images in rounds: the first image of every crash point, then the
/// second of every crash point, and so on. With ``seconds`` set it stops at that deadline, so
/// any time, however short, reaches every crash point before it goes deeper into any; the
/// ``CrashReport`` says how far it got.
public struct CrashBudget: Sendable, Hashable {
  /// The most crash images checked per crash point (at least 1).
  public var imagesPerCrashPoint: Int
  /// Whether recovery that performs operations is itself crashed at each of its points, and
  /// recovered again.
  public var recoveryCrashPoints: Bool
  /// The seed of the sampling and of garbage bytes.
  public var seed: UInt64
  /// How many of a crash point's images have their recovery crashed too (when
  /// ``recoveryCrashPoints`` is set), or `nil` for every image's.
  ///
  /// They are the first images the explorer checks at the crash point: all of them when the
  /// point's whole space fits in the budget; else the durable-only and everything-kept images
  /// (or every combination with representative tear points, when those fit), then the
  /// sample. The other images of the point are recovered and checked, their recovery not
  /// crashed. Crashing a recovery costs one recovery per image of each of its crash points,
  /// so an exploration whose recovery performs many operations sets this to keep a large
  /// ``imagesPerCrashPoint`` affordable.
  public var crashedRecoveriesPerCrashPoint: Int?
  /// How long one exploration may take, in seconds, or `nil` for no deadline (the count
  /// alone bounds it).
  ///
  /// At the deadline the explorer finishes the image it is on and stops; the report's
  /// ``CrashReport/stoppedAtDeadline`` says so. It never stops in its first round: every crash
  /// point's first image is checked however short the time. The order of the images does not depend on the
  /// deadline, so a longer time explores a superset of a shorter one's images.
  public var seconds: Double?
  /// One image to explore alone, as a violation's replay names it, or `nil` to explore
  /// everything the budget allows.
  public var replay: CrashReplay?

  /// The most images checked per crash point of a crashed recovery (fewer than for the
  /// operation itself, since there is one recovery per image).
  public var imagesPerRecoveryCrashPoint: Int { min(imagesPerCrashPoint, 8) }

  /// The images per crash point of a budget given only a time (``fromEnvironment(default:)``
  /// with `STOIC_CRASH_SECONDS` and no `STOIC_CRASH_BUDGET`): the full budget, for the
  /// deadline to cut.
  public static let imagesUnderTimeBudget = 2000

  /// The seed used unless one is given: `0x5701C`.
  public static let defaultSeed: UInt64 = 0x5701C

  /// Creates a budget.
  ///
  /// - Parameters:
  ///   - imagesPerCrashPoint: The most images per crash point; values below 1 count as 1.
  ///   - recoveryCrashPoints: Whether to crash recovery too.
  ///   - seed: The sampling seed.
  ///   - crashedRecoveriesPerCrashPoint: How many images per crash point have their recovery
  ///     crashed (values below 1 count as 1), or `nil` for all.
  ///   - seconds: The time one exploration may take (non-positive values and non-finite
  ///     values count as no deadline), or `nil` for none.
  ///   - replay: One image to explore alone, or `nil`.
  public init(
    imagesPerCrashPoint: Int, recoveryCrashPoints: Bool = true, seed: UInt64 = defaultSeed,
    crashedRecoveriesPerCrashPoint: Int? = nil, seconds: Double? = nil,
    replay: CrashReplay? = nil
  ) {
    self.imagesPerCrashPoint = max(1, imagesPerCrashPoint)
    self.recoveryCrashPoints = recoveryCrashPoints
    self.seed = seed
    self.crashedRecoveriesPerCrashPoint = crashedRecoveriesPerCrashPoint.map { max(1, $0) }
    self.seconds = seconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    self.replay = replay
  }

  /// The budget from the environment:
  ///
  /// - `STOIC_CRASH_BUDGET`: images per crash point, a positive integer; else `default`, or
  ///   ``imagesUnderTimeBudget`` when a time is given;
  /// - `STOIC_CRASH_SECONDS`: ``seconds``, a positive decimal number; else no deadline;
  /// - `STOIC_CRASH_TOTAL_SECONDS`: a deadline for all the explorations of the process
  ///   together, counted from the first one's start (it applies to every budget, not only to
  ///   those read from the environment); else none;
  /// - `STOIC_CRASH_SEED`: decimal or `0x` hexadecimal; else ``defaultSeed``;
  /// - `STOIC_CRASH_RECOVERIES`: ``crashedRecoveriesPerCrashPoint``, a positive integer; else
  ///   every image;
  /// - `STOIC_CRASH_REPLAY`: ``replay``, as a violation prints it (`12:7` or `12:7/3:2`).
  ///
  /// Values that do not parse are ignored. The ordinary test run keeps the default of 64; a
  /// long run sets, for example, `STOIC_CRASH_SECONDS=600`.
  public static func fromEnvironment(default: Int = 64) -> CrashBudget {
    let seconds = TestEnvironment.positiveDecimal("STOIC_CRASH_SECONDS")
    return CrashBudget(
      imagesPerCrashPoint: TestEnvironment.positiveInteger("STOIC_CRASH_BUDGET")
        ?? (seconds == nil ? `default` : max(`default`, imagesUnderTimeBudget)),
      seed: TestEnvironment.seed("STOIC_CRASH_SEED") ?? defaultSeed,
      crashedRecoveriesPerCrashPoint: TestEnvironment.positiveInteger("STOIC_CRASH_RECOVERIES"),
      seconds: seconds,
      replay: TestEnvironment.value("STOIC_CRASH_REPLAY").flatMap(CrashReplay.init))
  }

  /// The environment variables that give this budget again: for a violation's replay.
  var environment: String {
    "STOIC_CRASH_SEED=0x\(String(seed, radix: 16, uppercase: true))"
      + " STOIC_CRASH_BUDGET=\(imagesPerCrashPoint)"
  }
}

/// The environment variables that set how hard the explorations and property tests look,
/// read without Foundation.
enum TestEnvironment {
  /// The value of an environment variable.
  static func value(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  /// A positive integer, or `nil` if the variable is unset or does not parse as one.
  static func positiveInteger(_ name: String) -> Int? {
    guard let text = value(name), let number = Int(text), number > 0 else { return nil }
    return number
  }

  /// The deadline `STOIC_CRASH_TOTAL_SECONDS` (a positive decimal number) sets for every
  /// exploration of this process together: that many seconds after the first exploration
  /// started; `nil` when unset. An exploration stops at the earlier of it and its own
  /// ``CrashBudget/seconds``, so a run of many suites keeps to its total.
  static let runDeadline: ContinuousClock.Instant? = positiveDecimal("STOIC_CRASH_TOTAL_SECONDS")
    .map { ContinuousClock.now + CrashTally.duration(seconds: $0) }

  /// A positive finite decimal number, or `nil` if the variable is unset or does not parse as
  /// one.
  static func positiveDecimal(_ name: String) -> Double? {
    guard let text = value(name), let number = Double(text), number.isFinite, number > 0 else {
      return nil
    }
    return number
  }

  /// A seed, decimal or `0x` hexadecimal, or `nil` if the variable is unset or does not parse.
  static func seed(_ name: String) -> UInt64? {
    guard let text = value(name) else { return nil }
    return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text, radix: 10)
  }
}
