import Synchronization

/// Accumulates the time the journal spends compressing sealed segments, as seen through
/// ``TimingFileSystem``: from opening a sealed `.log` for reading to the sync of the `.zst`
/// temporary that holds its compressed blocks (so the syncs and renames around it are not
/// counted).
final class CompactionTimer: Sendable {
  private struct State {
    var started: UInt64?
    var seconds: Double = 0
    var segments = 0
  }

  private let state = Mutex(State())

  func sealedLogOpened() {
    state.withLock { $0.started = MonotonicClock.now() }
  }

  func compressedSyncStarting() {
    state.withLock { state in
      guard let started = state.started else { return }
      state.seconds += MonotonicClock.seconds(since: started)
      state.segments += 1
      state.started = nil
    }
  }

  /// Seconds spent compressing and the number of segments compressed.
  var totals: (seconds: Double, segments: Int) {
    state.withLock { ($0.seconds, $0.segments) }
  }
}
