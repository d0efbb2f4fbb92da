/// What an exploration has found so far, and how one image is recovered and checked.
struct CrashTally {
  var imagesChecked = 0
  var recoveryImagesChecked = 0
  var violations: [CrashViolation] = []
  /// Crashed-recovery images already checked, as hashes of crash point and disk: different
  /// images of one crash point often crash recovery into the same disk, and checking it again
  /// would tell nothing new.
  var checkedRecoveryImages = Set<Int>()

  /// Recovers `image` and checks the result; returns the disk at each of recovery's crash
  /// points when recovery succeeded (nil when it threw, or when the crashed-recovery image
  /// was already checked at this crash point).
  mutating func run<State>(
    _ image: CrashImage,
    _ context: CrashContext,
    _ recover: (SimulatedFileSystem) throws -> State,
    _ check: (State, CrashContext) throws -> Void
  ) -> [DiskSnapshot]? {
    if context.duringRecovery {
      var hasher = Hasher()
      hasher.combine(context.crashPoint)
      hasher.combine(image.files)
      guard checkedRecoveryImages.insert(hasher.finalize()).inserted else { return nil }
      recoveryImagesChecked += 1
    }
    imagesChecked += 1
    let disk = image.makeFileSystem()
    disk.startRecording()
    let state: State
    do {
      state = try recover(disk)
    } catch {
      _ = disk.stopRecording()
      violations.append(context.violation(.recoveryThrew, "recover threw: \(error)"))
      return nil
    }
    let recovery = disk.stopRecording()
    do {
      try check(state, context)
    } catch let violation as CrashViolation {
      violations.append(context.violation(violation.kind, violation.message))
    } catch {
      violations.append(context.violation(.checkThrew, "check threw: \(error)"))
    }
    return recovery
  }
}
