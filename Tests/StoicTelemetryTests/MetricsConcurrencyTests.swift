import Dispatch
import Foundation
import StoicStore
import Synchronization
import Testing

@testable import StoicTelemetry

/// Many threads updating and making series at once on a real disk: exact totals, no lock.
@Suite("MetricsSpool under many threads")
struct MetricsConcurrencyTests {
  typealias Support = MetricsTestSupport
  static let threads = 8
  static let iterations = 20_000

  @Test(
    "counters, floating-point counters (compare-and-swap), gauges and histograms add up exactly")
  func exactTotals() throws {
    try Support.withScratch { directory in
      let spool = try MetricsSpool.open(directory: directory, options: Support.options())
      let shared = spool.counter(label: "shared")
      let doubles = spool.floatingPointCounter(label: "doubles")
      let gauge = spool.gauge(label: "gauge")
      let histogram = spool.histogram(label: "histogram", bounds: [10, 20])
      Self.together(Self.threads) { thread in
        // Each thread also makes its own handles, some for series another thread makes too.
        let own = spool.counter(label: "own", dimensions: [("thread", "\(thread)")])
        let pair = spool.counter(label: "pair", dimensions: [("pair", "\(thread / 2)")])
        for step in 0..<Self.iterations {
          shared.increment()
          own.increment(by: 2)
          pair.increment()
          doubles.increment(by: 0.5)
          gauge.increment(by: 1)
          gauge.decrement(by: 1)
          histogram.record(Double(step % 30))
        }
        try? spool.flush()
      }
      let total = Int64(Self.threads * Self.iterations)
      #expect(shared.value == total)
      #expect(doubles.value == Double(total) / 2)
      #expect(gauge.value == 0)
      for thread in 0..<Self.threads {
        let own = Support.current(spool, "own", [MetricDimension("thread", "\(thread)")])
        #expect(own?.value == .integer(Int64(2 * Self.iterations)))
      }
      for pair in 0..<(Self.threads / 2) {
        let value = Support.current(spool, "pair", [MetricDimension("pair", "\(pair)")])
        #expect(value?.value == .integer(Int64(2 * Self.iterations)))
      }
      let value = histogram.value
      #expect(value.count == UInt64(total))
      // Per thread: 0...10 (11 values), 11...20 (10), 21...29 (9) out of every 30 steps.
      let rounds = UInt64(Self.threads) * UInt64(Self.iterations / 30)
      let rest = Self.iterations % 30
      let extra = (
        UInt64(min(rest, 11)), UInt64(max(0, min(rest, 21) - 11)), UInt64(max(0, rest - 21))
      )
      #expect(
        value.bucketCounts == [
          rounds * 11 + UInt64(Self.threads) * extra.0,
          rounds * 10 + UInt64(Self.threads) * extra.1,
          rounds * 9 + UInt64(Self.threads) * extra.2,
        ])
      #expect(value.min == 0 && value.max == 29)
      // Reopened (same boot), the values are in the live file.
      try spool.close()
      let reopened = try MetricsSpool.open(directory: directory, options: Support.options())
      #expect(Support.current(reopened, "shared")?.value == .integer(total))
      #expect(Support.current(reopened, "doubles")?.value == .double(Double(total) / 2))
      try reopened.close()
    }
  }

  @Test("series made from many threads at once are each made once, across several live files")
  func concurrentMaking() throws {
    try Support.withScratch { directory in
      let spool = try MetricsSpool.open(
        directory: directory, options: Support.options(liveFileSize: 64 << 10))
      DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
        for index in 0..<600 {
          // Every thread makes the same 600 series, in another order.
          let id = (index * 7 + thread * 13) % 600
          spool.counter(label: "series", dimensions: [("id", "\(id)")]).increment()
        }
      }
      #expect(spool.seriesCount == 600)
      let samples = spool.currentSamples()
      #expect(samples.allSatisfy { $0.value == .integer(Int64(Self.threads)) })
      let names = try PosixFileSystem().list(directory)
      #expect(names.contains("live-1.map"))
      try spool.close()
      let reopened = try MetricsSpool.open(
        directory: directory, options: Support.options(liveFileSize: 64 << 10))
      #expect(reopened.recovery.rebuiltReason == nil)
      #expect(reopened.currentSamples().count == 600)
      #expect(reopened.currentSamples().allSatisfy { $0.value == .integer(Int64(Self.threads)) })
      try reopened.close()
    }
  }

  /// Runs `body` on `count` threads of their own, released together once all have started.
  static func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Atomic<Int>(0)
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      Thread.detachNewThread {
        ready.add(1, ordering: .relaxed)
        while ready.load(ordering: .relaxed) < count {}
        body(index)
        group.leave()
      }
    }
    group.wait()
  }

  @Test("compare-and-swap additions of doubles from threads released together lose nothing")
  func floatContention() throws {
    try Support.withScratch { directory in
      let spool = try MetricsSpool.open(directory: directory, options: Support.options())
      let doubles = spool.floatingPointCounter(label: "doubles")
      let gauge = spool.gauge(label: "gauge")
      let histogram = spool.histogram(label: "histogram")
      Self.together(4) { thread in
        for step in 0..<250_000 {
          doubles.increment(by: 0.25)
          gauge.increment(by: thread % 2 == 0 ? 0.5 : -0.25)
          if step % 8 == 0 { histogram.record(Double(thread)) }
        }
      }
      #expect(doubles.value == 250_000)
      let up: Double = 2 * 250_000 * 0.5
      let down: Double = 2 * 250_000 * 0.25
      #expect(gauge.value == up - down)
      let recorded = histogram.value
      #expect(recorded.count == 125_000)
      #expect(recorded.sum == 31_250 * 6)
      try spool.close()
    }
  }
}
