#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outbox's sense of time: the wall clock (for creation times and `Retry-After` dates)
/// and a way to wait (between retries). Tests pass a clock they control.
public struct OutboxClock: Sendable {
  /// Milliseconds since the Unix epoch.
  public let now: @Sendable () -> Int64
  /// Waits for the duration (or returns early when the task is cancelled).
  public let sleep: @Sendable (Duration) async -> Void

  /// Creates a clock from its two closures.
  public init(
    now: @escaping @Sendable () -> Int64, sleep: @escaping @Sendable (Duration) async -> Void
  ) {
    self.now = now
    self.sleep = sleep
  }

  /// The system's real-time clock and `Task.sleep`.
  public static let system = OutboxClock(
    now: {
      var spec = timespec()
      clock_gettime(CLOCK_REALTIME, &spec)
      return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    },
    sleep: { duration in
      try? await Task.sleep(for: duration)
    })
}
