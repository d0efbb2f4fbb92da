/// Crash-tests persistence code: runs an operation on a ``SimulatedFileSystem``, crashes it
/// at every point, and checks that recovery finds an acceptable state on every disk the crash
/// model allows.
///
/// The explorer:
/// 1. creates a fresh ``SimulatedFileSystem``, runs `setup` on it and settles it (everything
///    durable);
/// 2. runs `operation` once, recording the disk after every operation (crash point `k` is the
///    disk after `k` operations; 0 is the settled disk). What `operation` throws is recorded in
///    ``CrashReport/operationError``, not a violation: an operation may legitimately fail;
/// 3. for every crash point, builds the crash images the model allows (durable state plus any
///    subset of the pending operations, writes torn or garbled; exhaustively while they fit in
///    the budget, else the durable-only image, the everything-kept image and a seeded sample),
///    runs `recover` on a fresh disk holding each image, and passes the result to `check`. It
///    takes them in rounds: the first image of every crash point (in an order the seed
///    shuffles), then the second of every crash point, and so on, so that a deadline
///    (``CrashBudget/seconds``), however short, reaches every crash point before it goes
///    deeper into any;
/// 4. when `recover` performed operations and ``CrashBudget/recoveryCrashPoints`` is set,
///    crashes recovery at each of its points too (for every round, or for the first
///    ``CrashBudget/crashedRecoveriesPerCrashPoint`` rounds), runs `recover` again on those
///    images and checks again, with ``CrashContext/duringRecovery`` set.
///
/// An image whose disk (files, bytes, directories) equals one already checked with the same
/// acknowledgements is not recovered again, wherever it came from: the report counts it in
/// ``CrashReport/equalImagesSkipped``. This assumes what `check` accepts depends on the
/// recovered state and on ``CrashContext/acknowledged`` and ``CrashContext/attempted``, not on
/// the crash point's number, which is there to name the image.
///
/// Anything `recover` or `check` throws is a ``CrashViolation`` naming the crash point(s), the
/// image and its ``CrashReplay``. The same budget and seed give the same images in the same
/// order; ``CrashBudget/replay`` explores one of them alone, and
/// ``crashImages(setup:operation:at:)`` rebuilds the images of a crash point, so a violation
/// can be replayed and debugged.
///
/// The explorer runs on the calling thread; `setup`, `operation`, `recover` and `check` are
/// called one at a time.
///
/// ## Example
///
/// Crash-testing an app's own "save settings" code: the saved value must be either the old
/// or the new one after any crash, and the new one once `save` has returned.
///
/// ```swift
/// import StoicStore
/// import StoicTesting
/// import Testing
///
/// /// Saves `text` at `path` so that a crash leaves the old text or the new, never a mix.
/// func save(_ text: String, to path: String, on disk: some FileSystem) throws(StoreError) {
///   let temporary = path + ".tmp"
///   let handle = try disk.open(temporary, .createOrOpen)
///   defer { try? disk.close(handle) }
///   try disk.truncate(handle, to: 0)
///   try disk.write(handle, Array(text.utf8), at: 0)
///   try disk.sync(handle)
///   try disk.rename(temporary, to: path)
///   try disk.syncDirectory(StorePath.directory(of: path))
/// }
///
/// @Test func saveSurvivesEveryCrash() {
///   let report = CrashExplorer().explore(
///     setup: { disk in try save("old", to: "settings.txt", on: disk) },
///     operation: { disk, recorder in
///       try save("new", to: "settings.txt", on: disk)
///       recorder.acknowledge("new")
///     },
///     recover: { disk in
///       try disk.readWholeFile("settings.txt").map { String(decoding: $0, as: UTF8.self) }
///     },
///     check: { value, context in
///       let allowed = context.acknowledged.isEmpty ? ["old", "new"] : ["new"]
///       try context.require(
///         value.map(allowed.contains) ?? false, "found \(String(describing: value))")
///     })
///   #expect(report.passed, "\(report)")
/// }
/// ```
public struct CrashExplorer: Sendable {
  /// How many images per crash point, whether recovery is crashed, and the seed.
  public let budget: CrashBudget

  /// An explorer with `budget` (by default read from `STOIC_CRASH_BUDGET`, 64 images per
  /// crash point when unset).
  public init(budget: CrashBudget = .fromEnvironment()) {
    self.budget = budget
  }

  /// Explores every crash point of `operation` (see ``CrashExplorer``).
  ///
  /// - Parameters:
  ///   - setup: Prepares the disk; it is settled afterwards. If it throws, the report holds a
  ///     single violation at crash point 0.
  ///   - operation: The code under test; it records acknowledged values with the
  ///     ``CrashRecorder``.
  ///   - recover: Opens the crashed disk the way the app would at launch, and returns what it
  ///     found.
  ///   - check: Throws (ideally a ``CrashViolation`` from ``CrashContext/require(_:_:)``)
  ///     when what `recover` found is not acceptable at that crash point.
  ///   - fileID: The caller's file, naming the exploration in ``CrashReportLog``.
  ///   - function: The caller's function, naming the exploration in ``CrashReportLog``.
  /// - Returns: The crash points explored, images checked and violations found. Never throws.
  public func explore<State>(
    setup: (SimulatedFileSystem) throws -> Void = { _ in },
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void,
    recover: (SimulatedFileSystem) throws -> State,
    check: (State, CrashContext) throws -> Void,
    fileID: String = #fileID,
    function: String = #function
  ) -> CrashReport {
    let report = exploreAll(setup: setup, operation: operation, recover: recover, check: check)
    CrashReportLog.append(report, caller: "\(fileID) \(function)")
    return report
  }

  /// ``explore(setup:operation:recover:check:fileID:function:)`` without the log.
  private func exploreAll<State>(
    setup: (SimulatedFileSystem) throws -> Void,
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void,
    recover: (SimulatedFileSystem) throws -> State,
    check: (State, CrashContext) throws -> Void
  ) -> CrashReport {
    var tally = CrashTally(deadline: budget.seconds)
    let run: CrashRun
    switch CrashRun.record(setup: setup, operation: operation) {
    case .success(let recorded):
      run = recorded
    case .failure(let failure):
      let context = CrashContext(
        crashPoint: 0, totalPoints: 0, acknowledged: [], attempted: [], image: "setup")
      return CrashReport(
        crashPoints: 0, imagesChecked: 0,
        violations: [context.violation(.setupThrew, "setup threw: \(failure.description)")])
    }
    var points = run.snapshots.indices.map { point in
      CrashPointImages(
        point: point,
        acknowledged: run.acknowledgements.filter { $0.crashPoint <= point }.map(\.value),
        images: CrashImageStream(
          space: CrashImageSpace(snapshot: run.snapshots[point], seed: budget.seed),
          limit: budget.imagesPerCrashPoint, seed: SplitMix64.mix(budget.seed, point)))
    }
    let explored = Explored(
      totalPoints: run.snapshots.count - 1, attempted: run.acknowledgements.map(\.value),
      environment: budget.environment)
    if let replay = budget.replay {
      self.replay(replay, &points, explored, &tally, recover, check)
    } else {
      exploreInRounds(&points, explored, &tally, recover, check)
    }
    return CrashReport(
      crashPoints: run.snapshots.count, imagesChecked: tally.imagesChecked,
      violations: tally.violations, recoveryImagesChecked: tally.recoveryImagesChecked,
      operationError: run.operationError, crashPointsVisited: tally.visitedPoints.count,
      equalImagesSkipped: tally.equalImagesSkipped,
      recoveryCrashPointsExplored: tally.recoveryCrashPointsExplored,
      stoppedAtDeadline: tally.stoppedAtDeadline, elapsed: ContinuousClock.now - tally.started,
      firstViolationAfter: tally.firstViolationAfter)
  }

  /// What every image's context shares.
  private struct Explored {
    let totalPoints: Int
    let attempted: [String]
    let environment: String
  }

  /// The images of one crash point and what had been acknowledged by then.
  private struct CrashPointImages {
    let point: Int
    let acknowledged: [String]
    var images: CrashImageStream
  }

  /// The context of the latest image `points` gave.
  private func context(of points: CrashPointImages, _ image: CrashImage, _ explored: Explored)
    -> CrashContext
  {
    CrashContext(
      crashPoint: points.point, totalPoints: explored.totalPoints,
      acknowledged: points.acknowledged, attempted: explored.attempted,
      imageText: image.describer,
      replay: CrashReplay(crashPoint: points.point, image: points.images.emitted),
      budgetEnvironment: explored.environment)
  }

  /// Round `r` checks the `r`th image of every crash point that has one, in an order the seed
  /// shuffles, then crashes the recoveries of the round's images when `r` is within
  /// ``CrashBudget/crashedRecoveriesPerCrashPoint``; the rounds go on until every crash point
  /// has given its images or the deadline passes.
  private func exploreInRounds<State>(
    _ points: inout [CrashPointImages],
    _ explored: Explored,
    _ tally: inout CrashTally,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) {
    var live = Array(points.indices)
    var generator = SplitMix64(seed: SplitMix64.mix(budget.seed, points.count))
    live.shuffle(using: &generator)
    var round = 0
    while !live.isEmpty {
      round += 1
      let crashesRecovery =
        budget.recoveryCrashPoints && round <= budget.crashedRecoveriesPerCrashPoint ?? Int.max
      var recovered: [(CrashImage, CrashContext)] = []
      var next: [Int] = []
      for index in live {
        // The first round is never cut: every crash point gets its first image (the
        // durable-only one) however short the time, even one that passed before the
        // exploration began (`STOIC_CRASH_TOTAL_SECONDS` over many explorations).
        if round > 1, tally.pastDeadline() { return }
        guard let image = points[index].images.next() else { continue }
        next.append(index)
        let context = context(of: points[index], image, explored)
        if case .checked(recovered: true) = tally.run(image, context, recover, check),
          crashesRecovery
        {
          recovered.append((image, context))
        }
      }
      for (image, context) in recovered {
        guard let snapshots = tally.recordRecovery(of: image, recover) else { continue }
        exploreRecovery(snapshots, after: context, &tally, recover, check)
        if tally.stoppedAtDeadline { return }
      }
      live = next
    }
  }

  /// Explores the one image `replay` names (and its crashed recovery, when it names one),
  /// checking it even if an equal image was checked.
  private func replay<State>(
    _ replay: CrashReplay,
    _ points: inout [CrashPointImages],
    _ explored: Explored,
    _ tally: inout CrashTally,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) {
    guard points.indices.contains(replay.crashPoint) else { return }
    var found: CrashImage?
    while points[replay.crashPoint].images.emitted < replay.image,
      let image = points[replay.crashPoint].images.next()
    {
      found = image
    }
    guard let image = found, points[replay.crashPoint].images.emitted == replay.image else {
      return
    }
    let context = context(of: points[replay.crashPoint], image, explored)
    guard let recoveryPoint = replay.recoveryCrashPoint, let recoveryImage = replay.recoveryImage
    else {
      _ = tally.run(image, context, everyImage: true, recover, check)
      return
    }
    guard let snapshots = tally.recordRecovery(of: image, recover) else { return }
    exploreRecovery(
      snapshots, after: context, only: (recoveryPoint, recoveryImage), &tally, recover, check)
  }

  /// Crashes a recovery that performed operations at each of its points, and recovers and
  /// checks again (or only the one image `only` names, for a replay).
  private func exploreRecovery<State>(
    _ snapshots: [DiskSnapshot],
    after context: CrashContext,
    only: (point: Int, image: Int)? = nil,
    _ tally: inout CrashTally,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) {
    let recoveryTotal = snapshots.count - 1
    guard recoveryTotal >= 1, let main = context.replay else { return }
    for point in 1...recoveryTotal where only == nil || only?.point == point {
      tally.recoveryCrashPointsExplored += 1
      var images = CrashImageStream(
        space: CrashImageSpace(snapshot: snapshots[point], seed: budget.seed),
        limit: budget.imagesPerRecoveryCrashPoint,
        seed: SplitMix64.mix(budget.seed, main.crashPoint, main.image, point))
      while let image = images.next() {
        if let only, images.emitted != only.image { continue }
        if tally.pastDeadline() { return }
        let recoveryContext = CrashContext(
          crashPoint: context.crashPoint, totalPoints: context.totalPoints,
          acknowledged: context.acknowledged, attempted: context.attempted,
          imageText: LazyText { [base = context.imageText, describer = image.describer] in
            "\(base.text) | recovery crashed after \(point) of \(recoveryTotal) operations: "
              + describer.text
          },
          duringRecovery: true, recoveryCrashPoint: point, recoveryTotalPoints: recoveryTotal,
          replay: CrashReplay(
            crashPoint: main.crashPoint, image: main.image, recoveryCrashPoint: point,
            recoveryImage: images.emitted),
          budgetEnvironment: context.budgetEnvironment)
        _ = tally.run(image, recoveryContext, everyImage: only != nil, recover, check)
      }
    }
  }
}

/// One recorded run of an operation under test: the disk at every crash point (index =
/// operations performed; 0 is the settled disk after setup) and what it acknowledged.
struct CrashRun {
  /// Why setup failed.
  struct SetupFailure: Error {
    let description: String
  }

  let snapshots: [DiskSnapshot]
  let acknowledgements: [CrashRecorder.Acknowledgement]
  let operationError: String?

  /// Runs `setup` on a fresh disk, settles it, then runs `operation`, recording the disk after
  /// every operation. What `operation` throws is kept in ``operationError``.
  static func record(
    setup: (SimulatedFileSystem) throws -> Void,
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void
  ) -> Result<CrashRun, SetupFailure> {
    let disk = SimulatedFileSystem()
    do {
      try setup(disk)
    } catch {
      return .failure(SetupFailure(description: "\(error)"))
    }
    disk.settle()
    disk.startRecording()
    let recorder = CrashRecorder(disk: disk)
    var operationError: String?
    do {
      try operation(disk, recorder)
    } catch {
      operationError = "\(error)"
    }
    return .success(
      CrashRun(
        snapshots: disk.stopRecording(), acknowledgements: recorder.acknowledgements,
        operationError: operationError))
  }
}

extension CrashExplorer {
  /// The crash images ``explore(setup:operation:recover:check:fileID:function:)`` checks at one crash point,
  /// in the same order and with the same descriptions: for replaying a violation.
  ///
  /// Run the same `setup` and `operation`, pick the image whose ``CrashImage/description``
  /// equals the violation's ``CrashContext/image``, and debug recovery on
  /// ``CrashImage/makeFileSystem()``. (Images of a crashed recovery are not rebuilt here: their
  /// description starts with the image recovery ran on, which this returns.)
  ///
  /// - Parameters:
  ///   - setup: The same setup as the exploration.
  ///   - operation: The same operation.
  ///   - crashPoint: The crash point, 0 through the number of operations.
  /// - Returns: The images, or an empty array when setup throws or the crash point does not
  ///   exist.
  public func crashImages(
    setup: (SimulatedFileSystem) throws -> Void = { _ in },
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void,
    at crashPoint: Int
  ) -> [CrashImage] {
    guard case .success(let run) = CrashRun.record(setup: setup, operation: operation),
      run.snapshots.indices.contains(crashPoint)
    else { return [] }
    var images: [CrashImage] = []
    CrashImageSpace(snapshot: run.snapshots[crashPoint], seed: budget.seed).forEachImage(
      limit: budget.imagesPerCrashPoint, seed: SplitMix64.mix(budget.seed, crashPoint)
    ) { images.append($0) }
    return images
  }
}
