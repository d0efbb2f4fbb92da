#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wall clock a record's time is taken from.
enum WallClock {
  /// Now, in nanoseconds since 1970-01-01 00:00:00 UTC (`clock_gettime(CLOCK_REALTIME)`).
  static func nanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
  }
}
