#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How hard ``CrashExplorer`` looks: how many crash images per crash point are enumerated
/// exhaustively before it samples them with a fixed seed, and whether recovery is crashed too.
///
/// When every image the model allows at a crash point fits in ``imagesPerCrashPoint``, all of
/// them are checked (with every tear point of every write when those fit too). Otherwise the
/// explorer checks the durable-only image, the everything-kept image, and a sample drawn with a
/// SplitMix64 generator seeded from ``seed``, so a run is reproducible.
public struct CrashBudget: Sendable, Hashable {
  /// The most crash images checked per crash point (at least 1).
  public var imagesPerCrashPoint: Int
  /// Whether recovery that performs operations is itself crashed at each of its points, and
  /// recovered again.
  public var recoveryCrashPoints: Bool
  /// The seed of the sampling and of garbage bytes.
  public var seed: UInt64

  /// The most images checked per crash point of a crashed recovery (fewer than for the
  /// operation itself, since there is one recovery per image).
  public var imagesPerRecoveryCrashPoint: Int { min(imagesPerCrashPoint, 8) }

  /// The seed used unless one is given: `0x5701C`.
  public static let defaultSeed: UInt64 = 0x5701C

  /// Creates a budget.
  ///
  /// - Parameters:
  ///   - imagesPerCrashPoint: The most images per crash point; values below 1 count as 1.
  ///   - recoveryCrashPoints: Whether to crash recovery too.
  ///   - seed: The sampling seed.
  public init(
    imagesPerCrashPoint: Int, recoveryCrashPoints: Bool = true, seed: UInt64 = defaultSeed
  ) {
    self.imagesPerCrashPoint = max(1, imagesPerCrashPoint)
    self.recoveryCrashPoints = recoveryCrashPoints
    self.seed = seed
  }

  /// The budget from the environment: `STOIC_CRASH_BUDGET` (images per crash point, a positive
  /// integer) or `default`, and `STOIC_CRASH_SEED` (decimal or `0x` hexadecimal) or the
  /// default seed. Values that do not parse are ignored.
  ///
  /// The ordinary test run keeps the default of 64; a long run sets, for example,
  /// `STOIC_CRASH_BUDGET=5000`.
  public static func fromEnvironment(default: Int = 64) -> CrashBudget {
    CrashBudget(
      imagesPerCrashPoint: TestEnvironment.positiveInteger("STOIC_CRASH_BUDGET") ?? `default`,
      seed: TestEnvironment.seed("STOIC_CRASH_SEED") ?? defaultSeed)
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

  /// A seed, decimal or `0x` hexadecimal, or `nil` if the variable is unset or does not parse.
  static func seed(_ name: String) -> UInt64? {
    guard let text = value(name) else { return nil }
    return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text, radix: 10)
  }
}
