import Glibc

/// Nanoseconds from `clock_gettime(CLOCK_MONOTONIC)`.
public enum MonotonicClock {
  /// Now, in nanoseconds since an arbitrary moment before it.
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Seconds since `start` (a value of ``now()``).
  public static func seconds(since start: UInt64) -> Double {
    Double(now() - start) / 1e9
  }
}
