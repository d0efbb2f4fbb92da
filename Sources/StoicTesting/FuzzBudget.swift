/// How many random cases a property test checks, and from which seed, so that a run is
/// reproducible and the ordinary test run stays fast while a long run looks much harder.
///
/// A property test draws each case from a ``SplitMix64`` seeded with ``seed`` and the case's
/// number, so one failing case can be run again on its own.
public struct FuzzBudget: Sendable, Hashable {
  /// How many cases to check (at least 1).
  public var cases: Int
  /// The seed the cases are drawn from.
  public var seed: UInt64

  /// The seed used unless one is given: `0x5701C`, as ``CrashBudget/defaultSeed``.
  public static let defaultSeed: UInt64 = 0x5701C

  /// Creates a budget.
  ///
  /// - Parameters:
  ///   - cases: How many cases to check; values below 1 count as 1.
  ///   - seed: The seed the cases are drawn from.
  public init(cases: Int, seed: UInt64 = defaultSeed) {
    self.cases = max(1, cases)
    self.seed = seed
  }

  /// The budget from the environment: `STOIC_FUZZ_BUDGET` (cases, a positive integer) or
  /// `default`, and `STOIC_FUZZ_SEED` (decimal or `0x` hexadecimal) or the default seed. Values
  /// that do not parse are ignored.
  ///
  /// The ordinary test run keeps each test's small default; a long run sets, for example,
  /// `STOIC_FUZZ_BUDGET=20000`.
  public static func fromEnvironment(default: Int) -> FuzzBudget {
    FuzzBudget(
      cases: TestEnvironment.positiveInteger("STOIC_FUZZ_BUDGET") ?? `default`,
      seed: TestEnvironment.seed("STOIC_FUZZ_SEED") ?? defaultSeed)
  }

  /// Whether the budget was set in the environment (a long run, whose tests may print what
  /// they checked).
  public static var isSetInEnvironment: Bool {
    TestEnvironment.positiveInteger("STOIC_FUZZ_BUDGET") != nil
  }

  /// The generator for case number `index`: the same on every run with the same seed.
  public func generator(forCase index: Int) -> SplitMix64 {
    SplitMix64(seed: SplitMix64.mix(seed, index))
  }
}
