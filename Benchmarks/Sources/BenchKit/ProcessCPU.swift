import Glibc

/// The CPU time the whole process has used so far, user and system, over all its threads
/// (`getrusage(RUSAGE_SELF)`): with the sender and the collector in one process, the CPU one
/// forwarded record costs on both sides.
public enum ProcessCPU {
  /// The process's CPU seconds so far.
  public static func seconds() -> Double {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// The CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`): an app's log
  /// calls, apart from its background threads.
  public static func threadSeconds() -> Double {
    var spec = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return 0 }
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
