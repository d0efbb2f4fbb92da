extension SimulatedFileSystem {
  /// The distinct disks a crash right now could leave, as ``CrashExplorer`` enumerates them
  /// for one crash point: all of them while they fit in `limit` (with every tear point of
  /// every write when those fit too), else the durable-only image, the everything-kept image
  /// and a sample drawn from `seed`. The first image is always the durable-only one.
  ///
  /// - Parameters:
  ///   - limit: The most images returned (at least 1).
  ///   - seed: The seed of the sample and of garbage bytes.
  public func crashImages(limit: Int = 64, seed: UInt64 = CrashBudget.defaultSeed)
    -> [CrashImage]
  {
    let snapshot = state.withLock { $0.disk }
    var images: [CrashImage] = []
    CrashImageSpace(snapshot: snapshot, seed: seed).forEachImage(limit: limit, seed: seed) {
      images.append($0)
    }
    return images
  }

  /// The number of pending operations a crash now decides about: the pending writes and
  /// truncates of files some crash image can name, and the pending creates, renames, removes
  /// and made directories of every directory.
  public var pendingOperationCount: Int {
    let snapshot = state.withLock { $0.disk }
    return CrashImageSpace(snapshot: snapshot, seed: 0).slots.count
  }
}
