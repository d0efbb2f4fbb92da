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
