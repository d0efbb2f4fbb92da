import BenchKit
import CBenchSystem

/// What one run of one contender measured.
struct RunSample {
  /// Wall time of the measured loop.
  let seconds: Double
  /// Records written in the loop.
  let records: Int
  /// Per-call latencies in nanoseconds, when they were recorded.
  var latencies: [UInt64]? = nil
  /// Minor page faults of the process during the loop, when they were counted.
  var minorFaults: Int? = nil
  /// Windows a mapped peer mapped during the loop (the first included).
  var mappedWindows: Int? = nil
  /// Allocations the measuring thread made during the loop, divided by the records.
  var allocationsPerCall: Double? = nil

  var recordsPerSecond: Double { Double(records) / seconds }

  /// Times `count` calls of `body` (index 0 ..< count), recording each call's latency with
  /// `CLOCK_MONOTONIC` if asked.
  static func timing(count: Int, latencies recordLatencies: Bool, _ body: (Int) throws -> Void)
    rethrows -> RunSample
  {
    if !recordLatencies {
      let start = MonotonicClock.now()
      for index in 0..<count { try body(index) }
      return RunSample(seconds: MonotonicClock.seconds(since: start), records: count)
    }
    var latencies = [UInt64](repeating: 0, count: count)
    let allocations = stoic_bench_allocations()
    let start = MonotonicClock.now()
    for index in 0..<count {
      let before = MonotonicClock.now()
      try body(index)
      latencies[index] = MonotonicClock.now() - before
    }
    let seconds = MonotonicClock.seconds(since: start)
    let allocated = stoic_bench_allocations() - allocations
    return RunSample(
      seconds: seconds, records: count, latencies: latencies,
      allocationsPerCall: Double(allocated) / Double(Swift.max(1, count)))
  }
}
