import StoicStore
import Testing

@testable import StoicTesting

/// The order of an exploration (every crash point before a second image of any), its deadline,
/// equal images checked once, and the replay of one image by seed and index.
@Suite struct CrashExplorerRoundsTests {
  /// Forty unsynced 600-byte writes, each acknowledged (so that no two crash points share a
  /// disk with the same acknowledgements): 41 crash points with hundreds of images each.
  static func manyWrites(_ disk: SimulatedFileSystem, _ recorder: CrashRecorder) throws {
    let handle = try disk.open("log", .readWrite)
    for index in 0..<40 {
      try disk.write(handle, [UInt8](repeating: UInt8(index), count: 600), at: UInt64(index * 600))
      recorder.acknowledge("write \(index)")
    }
    try disk.close(handle)
  }

  static func createLog(_ disk: SimulatedFileSystem) throws {
    try disk.close(disk.open("log", .createOrOpen))
  }

  @Test func everyCrashPointIsVisitedBeforeAnyIsVisitedTwice() {
    var order: [Int] = []
    let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 6)).explore(
      setup: Self.createLog, operation: Self.manyWrites,
      recover: { disk in try disk.fileSize("log") },
      check: { _, context in order.append(context.crashPoint) })
    #expect(report.passed, "\(report)")
    #expect(report.crashPointsVisited == report.crashPoints)
    var seen = Set<Int>()
    var firstRepeat: Int?
    for (position, point) in order.enumerated() where !seen.insert(point).inserted {
      firstRepeat = firstRepeat ?? position
    }
    let repeatAt = firstRepeat ?? order.count
    // Every point checked at all was first checked before any point was checked again.
    #expect(Set(order.prefix(repeatAt)) == seen, "first repeat at \(repeatAt) of \(order.count)")
    #expect(repeatAt < order.count, "some point must have more than one image")
  }

  @Test func aDeadlineShorterThanTheSpaceStillVisitsEveryCrashPoint() {
    // 41 points of up to 2000 images at 2 ms a recovery would take minutes; 1 s has room for
    // one round (82 ms of recoveries) and stops.
    let report = CrashExplorer(
      budget: CrashBudget(imagesPerCrashPoint: 2000, recoveryCrashPoints: false, seconds: 1)
    ).explore(
      setup: Self.createLog, operation: Self.manyWrites,
      recover: { disk in
        let until = ContinuousClock.now + .milliseconds(2)
        while ContinuousClock.now < until {}
        return try disk.fileSize("log")
      },
      check: { _, _ in })
    #expect(report.stoppedAtDeadline, "\(report)")
    #expect(report.crashPointsVisited == report.crashPoints, "\(report)")
    #expect(report.imagesBuilt < report.crashPoints * 2000)
    #expect(report.elapsed >= .seconds(1))
    #expect(report.description.contains("stopped at the deadline"))
  }

  /// A run's total deadline (`STOIC_CRASH_TOTAL_SECONDS`) may have passed before an
  /// exploration starts: the first round is still explored whole.
  @Test func aDeadlineThatHasPassedStillVisitsEveryCrashPointOnce() {
    let report = CrashExplorer(
      budget: CrashBudget(imagesPerCrashPoint: 2000, recoveryCrashPoints: false, seconds: 1e-9)
    ).explore(
      setup: Self.createLog, operation: Self.manyWrites,
      recover: { disk in try disk.fileSize("log") }, check: { _, _ in })
    #expect(report.crashPointsVisited == report.crashPoints, "\(report)")
    #expect(report.imagesChecked >= 1, "\(report)")
    #expect(report.imagesBuilt <= report.crashPoints + 1, "\(report)")
    #expect(report.stoppedAtDeadline, "\(report)")
  }

  @Test func withoutADeadlineTheCountBoundsTheExploration() {
    let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 3)).explore(
      setup: Self.createLog, operation: Self.manyWrites,
      recover: { disk in try disk.fileSize("log") },
      check: { _, _ in })
    #expect(!report.stoppedAtDeadline)
    #expect(report.imagesBuilt <= report.crashPoints * 3)
    #expect(report.imagesBuilt > report.crashPoints)
  }

  /// A file rewritten with the bytes it holds, synced each time: every crash point's images
  /// are the same few disks.
  static func sameBytesAgain(_ disk: SimulatedFileSystem, _ recorder: CrashRecorder) throws {
    let handle = try disk.open("value", .createOrOpen)
    for _ in 0..<6 {
      try disk.write(handle, Array("same".utf8), at: 0)
      try disk.sync(handle)
    }
    try disk.close(handle)
  }

  /// A disk as a plain value, to count distinct disks independently of the explorer's hash.
  struct Disk: Hashable {
    let files: [String: [UInt8]]
    let directories: Set<String>
  }

  @Test func equalImagesAreRecoveredOnce() {
    let budget = CrashBudget(imagesPerCrashPoint: 64, recoveryCrashPoints: false)
    var recoveries = 0
    let report = CrashExplorer(budget: budget).explore(
      operation: Self.sameBytesAgain,
      recover: { disk in
        recoveries += 1
        return try disk.readWholeFile("value")
      },
      check: { _, _ in })
    var distinct = Set<Disk>()
    var total = 0
    for point in 0..<report.crashPoints {
      for image in CrashExplorer(budget: budget).crashImages(
        operation: Self.sameBytesAgain, at: point)
      {
        distinct.insert(Disk(files: image.files, directories: image.directories))
        total += 1
      }
    }
    #expect(report.passed, "\(report)")
    #expect(report.imagesBuilt == total)
    #expect(report.imagesChecked == distinct.count, "\(report)")
    #expect(recoveries == distinct.count)
    #expect(report.equalImagesSkipped == total - distinct.count)
    #expect(distinct.count < total / 2, "the scenario must produce equal images")
  }

  @Test func equalDisksWithOtherAcknowledgementsAreCheckedAgain() {
    // The disk after the first write is the same before and after its acknowledgement; the
    // check must see it against both.
    var checked: [[String]] = []
    let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 4)).explore(
      setup: { disk in
        let handle = try disk.open("value", .createOrOpen)
        try disk.write(handle, Array("v1".utf8), at: 0)
        try disk.sync(handle)
        try disk.close(handle)
      },
      operation: { disk, recorder in
        let handle = try disk.open("value", .readWrite)
        try disk.sync(handle)
        recorder.acknowledge("synced")
        try disk.sync(handle)
        try disk.close(handle)
      },
      recover: { disk in try disk.readWholeFile("value") },
      check: { _, context in checked.append(context.acknowledged) })
    #expect(report.passed, "\(report)")
    #expect(checked.contains([]))
    #expect(checked.contains(["synced"]))
  }

  @Test func aReportedViolationReplaysExactlyItsImage() throws {
    let seed: UInt64 = 0xBAD5EED
    let budget = CrashBudget(imagesPerCrashPoint: 16, seed: seed)
    let report = ToyAtomicWriter.noSyncBeforeRename.explore(budget: budget)
    #expect(!report.passed)
    for violation in report.violations.prefix(4) {
      let replay = try #require(violation.context.replay)
      #expect(violation.description.contains("STOIC_CRASH_SEED=0xBAD5EED"))
      #expect(violation.description.contains("STOIC_CRASH_REPLAY=\(replay)"))
      #expect(CrashReplay(replay.description) == replay)
      var again = budget
      again.replay = replay
      let replayed = ToyAtomicWriter.noSyncBeforeRename.explore(budget: again)
      #expect(replayed.imagesChecked == 1)
      #expect(replayed.violations.map(\.description) == [violation.description])
    }
    // The same index with another seed need not be the same image; the replay names both.
    var otherSeed = budget
    otherSeed.seed = 1
    otherSeed.replay = try #require(report.violations.first?.context.replay)
    #expect(ToyAtomicWriter.noSyncBeforeRename.explore(budget: otherSeed).imagesChecked == 1)
  }

  @Test func aCrashedRecoveryViolationReplaysExactlyItsImage() throws {
    let budget = CrashBudget(imagesPerCrashPoint: 8)
    let report = ToyAtomicWriter.correct.explore(
      budget: budget, recover: CrashExplorerRecoveryTests.rewriteInPlace)
    let violation = try #require(report.violations.first)
    let replay = try #require(violation.context.replay)
    #expect(replay.recoveryCrashPoint == violation.context.recoveryCrashPoint)
    #expect(replay.recoveryImage != nil)
    var again = budget
    again.replay = CrashReplay(replay.description)
    let replayed = ToyAtomicWriter.correct.explore(
      budget: again, recover: CrashExplorerRecoveryTests.rewriteInPlace)
    #expect(replayed.imagesChecked == 1)
    #expect(replayed.violations.map(\.description) == [violation.description])
  }

  @Test func replaysParseAsViolationsPrintThem() {
    #expect(CrashReplay("12:7") == CrashReplay(crashPoint: 12, image: 7))
    #expect(
      CrashReplay("12:7/3:2")
        == CrashReplay(crashPoint: 12, image: 7, recoveryCrashPoint: 3, recoveryImage: 2))
    for bad in ["", "12", "12:0", "-1:1", "1:1/0:1", "1:1/2", "1:1/2:3/4:5", "a:b", "1:1:1"] {
      #expect(CrashReplay(bad) == nil, "\(bad)")
    }
  }

  @Test func aReplayOfAnImageThatDoesNotExistChecksNothing() {
    var budget = CrashBudget(imagesPerCrashPoint: 4)
    budget.replay = CrashReplay(crashPoint: 99, image: 1)
    #expect(ToyAtomicWriter.noSyncBeforeRename.explore(budget: budget).imagesChecked == 0)
    budget.replay = CrashReplay(crashPoint: 1, image: 5)
    #expect(ToyAtomicWriter.noSyncBeforeRename.explore(budget: budget).imagesChecked == 0)
  }

  @Test(arguments: [ToyAtomicWriter.noSyncBeforeRename, .noDirectorySync, .inPlace])
  func everyBrokenWriterIsCaughtUnderAShortDeadline(writer: ToyAtomicWriter) throws {
    let report = writer.explore(
      budget: CrashBudget(imagesPerCrashPoint: 2000, seconds: 0.5))
    #expect(!report.passed)
    let detected = try #require(report.firstViolationAfter)
    #expect(detected <= report.elapsed)
    #expect(report.description.contains("first violation after"))
  }
}

/// The line an exploration appends to `STOIC_CRASH_REPORT`.
@Suite struct CrashReportLogTests {
  @Test func theLineHoldsTheReportsFieldsInOrder() {
    let report = ToyAtomicWriter.noSyncBeforeRename.explore(
      budget: CrashBudget(imagesPerCrashPoint: 8))
    let fields = CrashReportLog.line(report, name: "a\tname\n").split(
      separator: "\t", omittingEmptySubsequences: false)
    #expect(fields.count == CrashReportLog.fields.count)
    #expect(fields[0] == "a name ")
    #expect(fields[1] == "\(report.crashPointsVisited)")
    #expect(fields[2] == "\(report.crashPoints)")
    #expect(fields[3] == "\(report.imagesBuilt)")
    #expect(fields[4] == "\(report.imagesChecked)")
    #expect(fields[7] == "\(report.violations.count)")
    #expect(fields[9] != "-")
    #expect(fields[10] == "0")
  }
}
