import StoicStore
import StoicTesting
import Testing

/// Crashing recovery itself.
@Suite struct CrashExplorerRecoveryTests {
  /// Recovery that removes a stale temporary file durably before reading: correct even when
  /// it crashes.
  static func removeStaleTemporary(_ disk: SimulatedFileSystem) throws -> String? {
    let temporary = ToyAtomicWriter.path + ".tmp"
    if try disk.exists(temporary) {
      try disk.remove(temporary)
      try disk.syncDirectory(StorePath.directory(of: temporary))
    }
    return try ToyAtomicWriter.read(disk)
  }

  /// Recovery that "tidies" the file by rewriting it in place: harmless unless it crashes.
  static func rewriteInPlace(_ disk: SimulatedFileSystem) throws -> String? {
    guard let value = try ToyAtomicWriter.read(disk) else { return nil }
    let handle = try disk.open(ToyAtomicWriter.path, .readWrite)
    defer { try? disk.close(handle) }
    try disk.truncate(handle, to: 0)
    try disk.write(handle, Array(value.utf8), at: 0)
    try disk.sync(handle)
    return value
  }

  @Test func correctRecoveryPassesWhenCrashed() {
    let report = ToyAtomicWriter.correct.explore(recover: Self.removeStaleTemporary)
    #expect(report.passed, "\(report)")
    #expect(report.recoveryImagesChecked > 0)
  }

  @Test func recoveryThatBreaksWhenCrashedIsCaught() throws {
    let report = ToyAtomicWriter.correct.explore(recover: Self.rewriteInPlace)
    #expect(!report.passed)
    for violation in report.violations {
      #expect(violation.context.duringRecovery)
      let recoveryPoint = try #require(violation.context.recoveryCrashPoint)
      #expect(
        violation.description.contains(
          "crash point \(violation.context.crashPoint) of 6, then recovery crash point "
            + "\(recoveryPoint) of 3"))
      #expect(violation.context.image.contains("recovery crashed after \(recoveryPoint) of 3"))
    }
    // Without crashing recovery, the same recovery looks fine.
    let uncrashed = ToyAtomicWriter.correct.explore(
      budget: CrashBudget(imagesPerCrashPoint: 64, recoveryCrashPoints: false),
      recover: Self.rewriteInPlace)
    #expect(uncrashed.passed, "\(uncrashed)")
  }

  @Test func recoveryImagesAreBounded() {
    let budget = CrashBudget(imagesPerCrashPoint: 4)
    let report = ToyAtomicWriter.correct.explore(budget: budget, recover: Self.rewriteInPlace)
    let mainImages = report.imagesChecked - report.recoveryImagesChecked
    #expect(mainImages <= report.crashPoints * 4)
    // Recovery performs 3 operations; each is a crash point with at most 4 images.
    #expect(report.recoveryImagesChecked <= mainImages * 3 * budget.imagesPerRecoveryCrashPoint)
    #expect(report.recoveryImagesChecked > 0)
  }

  /// A cap on the images whose recovery is crashed leaves the operation's images alone,
  /// crashes the recovery of no more than the cap per crash point, and still catches a
  /// recovery that breaks when crashed (the first image of a point is the durable-only one).
  @Test func crashedRecoveriesPerCrashPointCapsOnlyTheCrashedRecoveries() {
    let all = ToyAtomicWriter.correct.explore(
      budget: CrashBudget(imagesPerCrashPoint: 64), recover: Self.rewriteInPlace)
    let capped = ToyAtomicWriter.correct.explore(
      budget: CrashBudget(imagesPerCrashPoint: 64, crashedRecoveriesPerCrashPoint: 1),
      recover: Self.rewriteInPlace)
    let mainImages = { (report: CrashReport) in report.imagesChecked - report.recoveryImagesChecked
    }
    #expect(mainImages(capped) == mainImages(all))
    #expect(mainImages(all) > capped.crashPoints, "some point must have more than one image")
    #expect(capped.recoveryImagesChecked > 0)
    #expect(capped.recoveryImagesChecked < all.recoveryImagesChecked)
    // One image per crash point; recovery performs 3 operations, each with at most 8 images.
    #expect(capped.recoveryImagesChecked <= capped.crashPoints * 3 * 8)
    #expect(!capped.passed)
    #expect(capped.violations.allSatisfy { $0.context.duringRecovery })
  }
}
