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

/// Where the outbox draws randomness: the jitter of its backoff and the batch keys it mints.
/// Tests pass a seeded source so that waits and keys are reproducible.
public struct OutboxRandom: Sendable {
  /// Returns a uniformly distributed 64-bit value.
  public let next: @Sendable () -> UInt64

  /// Creates a source from a closure.
  public init(_ next: @escaping @Sendable () -> UInt64) {
    self.next = next
  }

  /// The system's cryptographically secure generator.
  public static let system = OutboxRandom {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }
}
