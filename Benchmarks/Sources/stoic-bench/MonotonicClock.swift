import Glibc

/// Nanoseconds from `clock_gettime(CLOCK_MONOTONIC)`.
enum MonotonicClock {
  static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Seconds since `start` (a value of ``now()``).
  static func seconds(since start: UInt64) -> Double {
    Double(now() - start) / 1e9
  }
}
