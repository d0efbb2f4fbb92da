import BenchKit
import Glibc
import StoicStore
import Synchronization

/// Wall time and calls per kind of file-system operation the journal made, as seen through
/// ``TimingFileSystem``, for the breakdowns printed under the figures.
///
/// The compression of a sealed segment is timed as one window, from opening the sealed `.log`
/// for reading to the sync of the `.zst` temporary holding its blocks; calls inside the window
/// made by the compressing thread count towards it, not towards their own kind. The journal
/// compresses on a background thread, so the window overlaps the appends' own calls, which are
/// still counted as their kind.
final class FileSystemProfile: Sendable {
  enum Kind: CaseIterable {
    case write, sync, directorySync, other, compression
  }

  struct Totals {
    var seconds: [Kind: Double] = [:]
    var calls: [Kind: Int] = [:]
  }

  private struct State {
    var totals = Totals()
    var windowStart: UInt64?
    var windowThread: pthread_t?
  }

  private let state = Mutex(State())

  /// Runs one file-system call and adds its time to `kind` (or to the compression window).
  func measure<Value>(_ kind: Kind, _ body: () throws(StoreError) -> Value) throws(StoreError)
    -> Value
  {
    let start = MonotonicClock.now()
    defer {
      let seconds = MonotonicClock.seconds(since: start)
      state.withLock { state in
        if state.windowStart != nil, let thread = state.windowThread,
          pthread_equal(thread, pthread_self()) != 0
        {
          return
        }
        state.totals.seconds[kind, default: 0] += seconds
        state.totals.calls[kind, default: 0] += 1
      }
    }
    return try body()
  }

  func compressionStarted() {
    state.withLock {
      $0.windowStart = MonotonicClock.now()
      $0.windowThread = pthread_self()
    }
  }

  func compressionFinished() {
    state.withLock { state in
      guard let start = state.windowStart else { return }
      state.totals.seconds[.compression, default: 0] += MonotonicClock.seconds(since: start)
      state.totals.calls[.compression, default: 0] += 1
      state.windowStart = nil
      state.windowThread = nil
    }
  }

  /// Forgets what was measured so far (call it after opening the journal, so that only the
  /// timed loop counts).
  func reset() {
    state.withLock { $0 = State() }
  }

  var totals: Totals { state.withLock { $0.totals } }
}
