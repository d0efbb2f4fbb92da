/// What an exploration has found so far, and how one image is recovered and checked.
struct CrashTally {
  /// What became of one image.
  enum Outcome {
    /// Recovered and checked; `recovered` is false when recovery threw.
    case checked(recovered: Bool)
    /// Equal to an image already checked with the same acknowledgements: skipped.
    case equal
  }

  let started: ContinuousClock.Instant
  let deadline: ContinuousClock.Instant?
  var imagesChecked = 0
  var recoveryImagesChecked = 0
  var equalImagesSkipped = 0
  var recoveryCrashPointsExplored = 0
  var visitedPoints = Set<Int>()
  var violations: [CrashViolation] = []
  var firstViolationAfter: Duration?
  var stoppedAtDeadline = false
  /// Images already checked, as hashes of their disk and of how many acknowledgements the
  /// check held them to: the same disk judged against the same acknowledgements gives the
  /// same verdict, wherever it came from. Crashed-recovery images are kept apart, so that a
  /// disk first seen as one still has its own recovery crashed when it turns up as an
  /// operation's image.
  private var checkedImages = Set<Int>()
  private var checkedRecoveryImages = Set<Int>()

  init(deadline seconds: Double?) {
    let now = ContinuousClock.now
    started = now
    let own = seconds.map { now + Self.duration(seconds: $0) }
    deadline = [own, TestEnvironment.runDeadline].compactMap { $0 }.min()
  }

  /// `seconds` (finite, positive; at most a billion) as a duration.
  static func duration(seconds: Double) -> Duration {
    .nanoseconds(Int64(min(max(seconds, 0), 1e9) * 1e9))
  }

  /// Whether the deadline has passed (and, once it has, that the exploration stopped early).
  mutating func pastDeadline() -> Bool {
    guard let deadline, ContinuousClock.now >= deadline else { return false }
    stoppedAtDeadline = true
    return true
  }

  /// Recovers `image` and checks the result, unless an equal image was checked against the
  /// same acknowledgements (or `everyImage` is set, for a replay).
  mutating func run<State>(
    _ image: CrashImage,
    _ context: CrashContext,
    everyImage: Bool = false,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) -> Outcome {
    visitedPoints.insert(context.crashPoint)
    var hasher = Hasher()
    hasher.combine(context.acknowledged.count)
    hasher.combine(image.diskHash)
    let key = hasher.finalize()
    let inserted =
      context.duringRecovery
      ? checkedRecoveryImages.insert(key).inserted : checkedImages.insert(key).inserted
    guard inserted || everyImage else {
      equalImagesSkipped += 1
      return .equal
    }
    if context.duringRecovery { recoveryImagesChecked += 1 }
    imagesChecked += 1
    let disk = image.makeFileSystem()
    let state: State
    do {
      state = try recover(disk)
    } catch {
      record(context.violation(.recoveryThrew, "recover threw: \(error)"))
      return .checked(recovered: false)
    }
    do {
      try check(state, context)
    } catch let violation as CrashViolation {
      record(context.violation(violation.kind, violation.message))
    } catch {
      record(context.violation(.checkThrew, "check threw: \(error)"))
    }
    return .checked(recovered: true)
  }

  /// Recovers `image` again, recording the disk after each of recovery's operations, for
  /// crashing it; nil when recovery throws (the first run reported it).
  func recordRecovery<State>(
    of image: CrashImage, _ recover: (SimulatedFileSystem) throws -> State
  ) -> [DiskSnapshot]? {
    let disk = image.makeFileSystem()
    disk.startRecording()
    do {
      _ = try recover(disk)
    } catch {
      _ = disk.stopRecording()
      return nil
    }
    return disk.stopRecording()
  }

  private mutating func record(_ violation: CrashViolation) {
    if firstViolationAfter == nil { firstViolationAfter = ContinuousClock.now - started }
    violations.append(violation)
  }
}
