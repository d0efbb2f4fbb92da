import BenchKit
import Foundation
import StoicCollector

extension PipelineRun {
  /// What a run at an offered rate counted.
  struct RateTally {
    /// Records a second offered (0: as fast as the app logs).
    let rate: Int
    /// Log calls that returned before the SIGTERM.
    let returned: Int
    /// Of those, the records the collector holds.
    let delivered: Int
    /// From the app's start until the collector last received one of them.
    let seconds: Double
    /// CPU seconds of the app (its exporter or forwarder in it).
    let cpuSeconds: Double

    var lost: Int { returned - delivered }
    var deliveredPerSecond: Double { Double(delivered) / seconds }
    var cpuSecondsPerMillionDelivered: Double {
      delivered == 0 ? .nan : cpuSeconds * 1e6 / Double(delivered)
    }
  }

  /// An app started by `start` logging at `rate` for `seconds`, then sent SIGTERM (it stops
  /// logging and drains or flushes, as a service on a stop); what reached the collector once
  /// it has been quiet for 3 s, against the calls that returned.
  func rated(
    rate: Int, seconds: Double, start: (Collector, Range<Int>, Int) throws -> ChildProcess
  ) throws -> RateTally {
    let collector = try Collector.start(CollectorOptions(dataDirectory: directory + "/collector"))
    defer { try? collector.stop() }
    let counter = try SharedCounter(path: counterPath)
    let started = MonotonicClock.now()
    let app = try start(collector, 0..<(1 << 40), rate)
    usleep(UInt32(seconds * 1e6))
    app.kill(SIGTERM)
    let exit = try app.wait()
    let returned = Int(counter.value)
    let lastChange = try Self.lastChangeOnceQuiet(collector)
    let tally = try Self.tally(collector, returned: [0..<returned], kills: 0)
    return RateTally(
      rate: rate, returned: returned, delivered: returned - tally.lost,
      seconds: Double(lastChange - started) / 1e9, cpuSeconds: exit.cpuSeconds)
  }

  /// Waits until the collector's count has not changed for 3 s (at most 2 minutes); returns
  /// when it last changed (``MonotonicClock/now()``).
  static func lastChangeOnceQuiet(_ collector: Collector) throws -> UInt64 {
    let deadline = MonotonicClock.now() + 120_000_000_000
    var last = -1
    var since = MonotonicClock.now()
    while MonotonicClock.now() < deadline {
      let count = collector.stats.logRecords
      if count != last {
        last = count
        since = MonotonicClock.now()
      } else if MonotonicClock.now() - since >= 3_000_000_000 {
        break
      }
      usleep(20_000)
    }
    return since
  }
}
