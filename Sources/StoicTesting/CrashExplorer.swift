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
///    runs `recover` on a fresh disk holding each image, and passes the result to `check`;
/// 4. when `recover` performed operations and ``CrashBudget/recoveryCrashPoints`` is set,
///    crashes recovery at each of its points too, runs `recover` again on those images and
///    checks again, with ``CrashContext/duringRecovery`` set.
///
/// Anything `recover` or `check` throws is a ``CrashViolation`` naming the crash point(s) and
/// the image. The same budget and seed give the same report, and
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
  /// - Returns: The crash points explored, images checked and violations found. Never throws.
  public func explore<State>(
    setup: (SimulatedFileSystem) throws -> Void = { _ in },
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void,
    recover: (SimulatedFileSystem) throws -> State,
    check: (State, CrashContext) throws -> Void
  ) -> CrashReport {
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
    let snapshots = run.snapshots
    let attempted = run.acknowledgements.map(\.value)
    var tally = CrashTally()
    let totalPoints = snapshots.count - 1
    for (point, snapshot) in snapshots.enumerated() {
      let acknowledged = run.acknowledgements.filter { $0.crashPoint <= point }.map(\.value)
      let space = CrashImageSpace(snapshot: snapshot, seed: budget.seed)
      var imageNumber = 0
      space.forEachImage(
        limit: budget.imagesPerCrashPoint, seed: SplitMix64.mix(budget.seed, point)
      ) { image in
        imageNumber += 1
        let context = CrashContext(
          crashPoint: point, totalPoints: totalPoints, acknowledged: acknowledged,
          attempted: attempted, imageText: image.describer)
        let recovery = tally.run(image, context, recover, check)
        if budget.recoveryCrashPoints, let recovery, recovery.count > 1 {
          exploreRecovery(
            recovery, after: context, salt: [point, imageNumber], &tally, recover, check)
        }
      }
    }
    return CrashReport(
      crashPoints: snapshots.count, imagesChecked: tally.imagesChecked,
      violations: tally.violations, recoveryImagesChecked: tally.recoveryImagesChecked,
      operationError: run.operationError)
  }

  /// Crashes a recovery that performed operations at each of its points, and recovers and
  /// checks again.
  private func exploreRecovery<State>(
    _ snapshots: [DiskSnapshot],
    after context: CrashContext,
    salt: [Int],
    _ tally: inout CrashTally,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) {
    let recoveryTotal = snapshots.count - 1
    for point in 1...recoveryTotal {
      let space = CrashImageSpace(snapshot: snapshots[point], seed: budget.seed)
      let seed = SplitMix64.mix(budget.seed, salt[0], salt[1], point)
      space.forEachImage(limit: budget.imagesPerRecoveryCrashPoint, seed: seed) { image in
        let recoveryContext = CrashContext(
          crashPoint: context.crashPoint, totalPoints: context.totalPoints,
          acknowledged: context.acknowledged, attempted: context.attempted,
          imageText: LazyText { [base = context.imageText, describer = image.describer] in
            "\(base.text) | recovery crashed after \(point) of \(recoveryTotal) operations: "
              + describer.text
          },
          duringRecovery: true, recoveryCrashPoint: point, recoveryTotalPoints: recoveryTotal)
        _ = tally.run(image, recoveryContext, recover, check)
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
  /// The crash images ``explore(setup:operation:recover:check:)`` checks at one crash point,
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
