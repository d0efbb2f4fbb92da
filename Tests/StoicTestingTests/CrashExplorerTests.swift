import StoicStore
import StoicTesting
import Testing

/// A toy "atomic write" protocol and broken variants of it, to show the explorer finds what
/// is missing and passes what is right.
enum ToyAtomicWriter: CaseIterable, CustomStringConvertible {
  /// Temp file, sync, rename over the target, sync the directory.
  case correct
  /// Renames a temp file that was never synced.
  case noSyncBeforeRename
  /// Never syncs the directory, but the caller acknowledges anyway.
  case noDirectorySync
  /// Truncates and rewrites the target itself.
  case inPlace

  static let path = "store/value"
  static let old = "old value, version 1"
  static let new = "new value, version 2 (longer)"

  var description: String {
    switch self {
    case .correct: "correct"
    case .noSyncBeforeRename: "noSyncBeforeRename"
    case .noDirectorySync: "noDirectorySync"
    case .inPlace: "inPlace"
    }
  }

  /// Writes `text` to `path` the way this variant does.
  func write(_ text: String, to path: String, on disk: some FileSystem) throws(StoreError) {
    let bytes = Array(text.utf8)
    if self == .inPlace {
      let handle = try disk.open(path, .createOrOpen)
      defer { try? disk.close(handle) }
      try disk.truncate(handle, to: 0)
      try disk.write(handle, bytes, at: 0)
      try disk.sync(handle)
      return
    }
    let temporary = path + ".tmp"
    let handle = try disk.open(temporary, .createOrOpen)
    try disk.truncate(handle, to: 0)
    try disk.write(handle, bytes, at: 0)
    if self != .noSyncBeforeRename { try disk.sync(handle) }
    try disk.close(handle)
    try disk.rename(temporary, to: path)
    if self != .noDirectorySync { try disk.syncDirectory(StorePath.directory(of: path)) }
  }

  /// Explores writing the new value over the old one, acknowledging it when the write returns.
  func explore(
    budget: CrashBudget = CrashBudget(imagesPerCrashPoint: 64),
    recover: (SimulatedFileSystem) throws -> String? = ToyAtomicWriter.read
  ) -> CrashReport {
    CrashExplorer(budget: budget).explore(
      setup: { disk in
        try disk.createDirectory("store")
        try ToyAtomicWriter.correct.write(ToyAtomicWriter.old, to: ToyAtomicWriter.path, on: disk)
      },
      operation: { disk, recorder in
        try write(ToyAtomicWriter.new, to: ToyAtomicWriter.path, on: disk)
        recorder.acknowledge(ToyAtomicWriter.new)
      },
      recover: recover,
      check: ToyAtomicWriter.check)
  }

  /// What recovery finds: the target's text, or nil.
  static func read(_ disk: SimulatedFileSystem) throws -> String? {
    try disk.readWholeFile(path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Exactly the old or the new value; the new one once acknowledged.
  static func check(_ value: String?, _ context: CrashContext) throws {
    let allowed = context.acknowledged.isEmpty ? [old, new] : [new]
    try context.require(
      value.map(allowed.contains) ?? false,
      "found \(String(describing: value)), expected one of \(allowed)")
  }
}

@Suite struct CrashExplorerTests {
  @Test func correctAtomicWritePassesEveryCrashPoint() {
    let report = ToyAtomicWriter.correct.explore()
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints == 7)
    #expect(report.operationError == nil)
    #expect(report.imagesChecked > report.crashPoints)
  }

  @Test(arguments: [
    (ToyAtomicWriter.noSyncBeforeRename, [4, 5]),
    (ToyAtomicWriter.noDirectorySync, [5]),
    (ToyAtomicWriter.inPlace, [1, 2]),
  ])
  func brokenWritersFailAtTheCrashPointsTheyBreak(writer: ToyAtomicWriter, points: [Int]) {
    let report = writer.explore()
    #expect(!report.passed)
    #expect(report.failingCrashPoints == points, "\(report)")
    for violation in report.violations {
      #expect(violation.description.contains("crash point \(violation.context.crashPoint) of"))
      #expect(!violation.context.duringRecovery)
    }
  }

  @Test func violationsDescribeTheImage() throws {
    let report = ToyAtomicWriter.noSyncBeforeRename.explore()
    // The rename survived (kept at point 4, durable at 5), the data did not: the image names
    // the renamed file's lost write, and the replay that rebuilds it.
    let violation = try #require(
      report.violations.first {
        $0.context.image.contains("inode 2 (store/value): op 1 truncate to 0 lost, op 2 write")
          && $0.context.image.contains("bytes at 0 lost")
      }, "\(report)")
    #expect(violation.message.contains("found Optional(\"\")"))
    #expect(violation.context.crashPoint == 4 || violation.context.crashPoint == 5)
    let replay = try #require(violation.context.replay)
    #expect(
      violation.description.contains(
        "replay: STOIC_CRASH_SEED=0x5701C STOIC_CRASH_BUDGET=64 STOIC_CRASH_REPLAY=\(replay)"))
  }

  @Test func contextsCarryTheAcknowledgements() {
    var seen: [Int: [String]] = [:]
    let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 4)).explore(
      operation: { disk, recorder in
        try TestDisk.write("a", to: "file", on: disk)
        recorder.acknowledge("first")
        try disk.syncDirectory(".")
        recorder.acknowledge("second")
      },
      recover: { _ in () },
      check: { _, context in
        seen[context.crashPoint] = context.acknowledged
        try context.require(context.attempted == ["first", "second"], "attempted")
        try context.require(context.totalPoints == 3, "total")
      })
    #expect(report.passed, "\(report)")
    let expected: [Int: [String]] = [0: [], 1: [], 2: ["first"], 3: ["first", "second"]]
    for (point, acknowledged) in seen { #expect(expected[point] == acknowledged, "\(point)") }
    // Points 0 and 1 share their durable-only disk and acknowledgements: it is checked once,
    // at whichever point the seeded order reaches first; every point is still visited.
    #expect(seen.count >= 3)
    #expect(report.crashPointsVisited == 4)
    #expect(report.equalImagesSkipped >= 1)
  }

  @Test func sameBudgetGivesTheSameReport() {
    let payload = String(repeating: "x", count: 6000)
    func run() -> CrashReport {
      CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 16)).explore(
        operation: { disk, _ in
          try ToyAtomicWriter.noSyncBeforeRename.write(payload, to: "value", on: disk)
        },
        recover: { disk in try TestDisk.text(disk.readWholeFile("value")) },
        check: { value, context in
          try context.require(value == nil || value == payload, "found \(value?.count ?? -1)")
        })
    }
    let first = run()
    let second = run()
    #expect(!first.passed)
    #expect(first.imagesChecked == second.imagesChecked)
    #expect(first.violations.map(\.description) == second.violations.map(\.description))
  }

  @Test(arguments: [1, 3, 16])
  func budgetBoundsTheImagesPerCrashPoint(budget: Int) {
    let report = ToyAtomicWriter.correct.explore(
      budget: CrashBudget(imagesPerCrashPoint: budget, recoveryCrashPoints: false))
    #expect(report.passed, "\(report)")
    #expect(report.imagesChecked <= report.crashPoints * budget)
    #expect(report.recoveryImagesChecked == 0)
    if budget == 1 { #expect(report.imagesBuilt == report.crashPoints) }
  }

  @Test func operationErrorsAreRecordedNotViolations() {
    let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 16)).explore(
      setup: { disk in
        try disk.createDirectory("store")
        try ToyAtomicWriter.correct.write(ToyAtomicWriter.old, to: ToyAtomicWriter.path, on: disk)
        disk.inject(.noSpaceOnWrite(nth: 1, partialBytes: 4))
      },
      operation: { disk, recorder in
        try ToyAtomicWriter.correct.write(ToyAtomicWriter.new, to: ToyAtomicWriter.path, on: disk)
        recorder.acknowledge(ToyAtomicWriter.new)
      },
      recover: ToyAtomicWriter.read,
      check: ToyAtomicWriter.check)
    #expect(report.passed, "\(report)")
    #expect(report.operationError?.contains("ENOSPC") == true)
  }

  @Test func setupRecoverAndCheckFailuresAreViolations() {
    struct Failure: Error {}
    let setup = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 2)).explore(
      setup: { _ in throw Failure() }, operation: { _, _ in }, recover: { _ in () },
      check: { _, _ in })
    #expect(setup.violations.count == 1)
    #expect(setup.violations.first?.message.contains("setup threw") == true)

    let recover = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 2)).explore(
      operation: { _, _ in }, recover: { _ in throw Failure() }, check: { _, _ in })
    #expect(recover.crashPoints == 1)
    #expect(recover.violations.map(\.message) == ["recover threw: Failure()"])

    let check = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 2)).explore(
      operation: { _, _ in }, recover: { _ in () }, check: { _, _ in throw Failure() })
    #expect(check.violations.map(\.message) == ["check threw: Failure()"])
  }
}

@Suite struct CrashExplorerReplayTests {
  @Test func aViolationCanBeReplayedFromItsDescription() throws {
    let writer = ToyAtomicWriter.noSyncBeforeRename
    let report = writer.explore()
    let violation = try #require(report.violations.last)
    let images = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 64)).crashImages(
      setup: { disk in
        try disk.createDirectory("store")
        try ToyAtomicWriter.correct.write(ToyAtomicWriter.old, to: ToyAtomicWriter.path, on: disk)
      },
      operation: { disk, _ in
        try writer.write(ToyAtomicWriter.new, to: ToyAtomicWriter.path, on: disk)
      },
      at: violation.context.crashPoint)
    let image = try #require(images.first { $0.description == violation.context.image })
    let value = try ToyAtomicWriter.read(image.makeFileSystem())
    #expect(throws: CrashViolation.self) { try ToyAtomicWriter.check(value, violation.context) }
  }

  @Test func missingCrashPointsGiveNoImages() {
    let explorer = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 4))
    #expect(explorer.crashImages(operation: { _, _ in }, at: 0).count == 1)
    #expect(explorer.crashImages(operation: { _, _ in }, at: 1).isEmpty)
    struct Failure: Error {}
    #expect(
      explorer.crashImages(setup: { _ in throw Failure() }, operation: { _, _ in }, at: 0).isEmpty)
  }
}
