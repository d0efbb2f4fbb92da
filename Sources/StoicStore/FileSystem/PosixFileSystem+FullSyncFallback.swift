import Synchronization

extension PosixFileSystem {
  /// Remembers whether ``StoreEvents/fullSyncUnavailable`` was emitted, so that a file system
  /// (and every copy of the value) reports the fallback once rather than on every sync.
  final class FullSyncFallbackFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// Returns `true` to the first caller only.
    func raiseFirst() -> Bool {
      raised.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
  }
}
