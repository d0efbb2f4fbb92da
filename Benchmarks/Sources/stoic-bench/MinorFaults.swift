import Glibc

/// The process's minor page faults so far (`getrusage(RUSAGE_SELF).ru_minflt`).
enum MinorFaults {
  static func now() -> Int {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return usage.ru_minflt
  }
}
