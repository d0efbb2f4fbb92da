import StoicTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct CrashBudgetTests {
  @Test func environmentOrDefault() {
    let budget = CrashBudget.fromEnvironment(default: 7)
    if let text = getenv("STOIC_CRASH_BUDGET"), let value = Int(String(cString: text)), value > 0 {
      #expect(budget.imagesPerCrashPoint == value)
    } else {
      #expect(budget.imagesPerCrashPoint == 7)
    }
    #expect(budget.recoveryCrashPoints)
  }

  @Test func imagesPerCrashPointIsAtLeastOne() {
    #expect(CrashBudget(imagesPerCrashPoint: 0).imagesPerCrashPoint == 1)
    #expect(CrashBudget(imagesPerCrashPoint: -5).imagesPerCrashPoint == 1)
    #expect(CrashBudget(imagesPerCrashPoint: 100).imagesPerRecoveryCrashPoint == 8)
    #expect(CrashBudget(imagesPerCrashPoint: 3).imagesPerRecoveryCrashPoint == 3)
    #expect(CrashBudget(imagesPerCrashPoint: 3).seed == CrashBudget.defaultSeed)
  }

  @Test func crashedRecoveriesAreEveryImageUnlessCapped() {
    #expect(CrashBudget(imagesPerCrashPoint: 9).crashedRecoveriesPerCrashPoint == nil)
    let capped = CrashBudget(imagesPerCrashPoint: 9, crashedRecoveriesPerCrashPoint: 4)
    #expect(capped.crashedRecoveriesPerCrashPoint == 4)
    let zero = CrashBudget(imagesPerCrashPoint: 9, crashedRecoveriesPerCrashPoint: 0)
    #expect(zero.crashedRecoveriesPerCrashPoint == 1)
    let fromEnvironment = CrashBudget.fromEnvironment(default: 7).crashedRecoveriesPerCrashPoint
    if let text = getenv("STOIC_CRASH_RECOVERIES"), let value = Int(String(cString: text)),
      value > 0
    {
      #expect(fromEnvironment == value)
    } else {
      #expect(fromEnvironment == nil)
    }
  }

  @Test func aDeadlineIsPositiveAndFiniteOrNone() {
    #expect(CrashBudget(imagesPerCrashPoint: 1).seconds == nil)
    #expect(CrashBudget(imagesPerCrashPoint: 1, seconds: 2.5).seconds == 2.5)
    for bad in [0, -1, Double.infinity, Double.nan] {
      #expect(CrashBudget(imagesPerCrashPoint: 1, seconds: bad).seconds == nil, "\(bad)")
    }
  }

  @Test func seedChangesTheSampleNotTheVerdict() {
    let payload = String(repeating: "y", count: 3000)
    func run(seed: UInt64) -> CrashReport {
      CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 12, seed: seed)).explore(
        operation: { disk, recorder in
          try ToyAtomicWriter.inPlace.write(payload, to: "value", on: disk)
          recorder.acknowledge(payload)
        },
        recover: { disk in try TestDisk.text(disk.readWholeFile("value")) },
        check: { value, context in
          try context.require(value == nil || value == payload, "found \(value?.count ?? -1)")
        })
    }
    let first = run(seed: 1)
    let second = run(seed: 2)
    #expect(!first.passed)
    #expect(!second.passed)
    #expect(first.violations.map(\.description) != second.violations.map(\.description))
  }
}
