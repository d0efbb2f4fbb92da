import Dispatch

/// The interval flush of a metrics spool: a repeating timer on a serial dispatch queue of its
/// own, so its syncs never hold a thread of Swift's cooperative pool.
final class MetricsFlushTimer: Sendable {
  nonisolated(unsafe) private let source: any DispatchSourceTimer
  private let interval: DispatchTimeInterval

  init(interval: Duration) {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(seconds, 0) * 1_000_000_000 + max(attoseconds, 0) / 1_000_000_000
    self.interval = .nanoseconds(Int(clamping: max(nanoseconds, 1_000_000)))
    source = DispatchSource.makeTimerSource(
      queue: DispatchQueue(label: "stoic.metrics.flush"))
  }

  /// Calls `action` every interval until cancelled.
  func start(_ action: @escaping @Sendable () -> Void) {
    source.setEventHandler(handler: action)
    source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
    source.resume()
  }

  /// Stops the timer; a flush already running finishes.
  func cancel() {
    source.cancel()
  }
}
