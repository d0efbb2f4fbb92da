import StoicStore
import StoicTesting
import Synchronization
import Testing

@testable import StoicTelemetry

@Suite("MetricsSpool: every kind's semantics, flushes, reopening")
struct MetricsSpoolTests {
  typealias Support = MetricsTestSupport

  static func open(
    _ disk: SimulatedFileSystem, _ options: MetricsOptions = Support.options(),
    events: EventSink = .discard
  ) throws -> MetricsSpool {
    try MetricsSpool.open(directory: "metrics", fileSystem: disk, options: options, events: events)
  }

  @Test("a counter sums positive increments, ignores others, and a reset starts it again later")
  func counter() throws {
    let clock = TestClock()
    let spool = try Self.open(SimulatedFileSystem(), Support.options(clock: clock))
    let counter = spool.counter(label: "requests", dimensions: [("route", "/a")])
    let started = clock.now
    counter.increment()
    counter.increment(by: 41)
    counter.increment(by: 0)
    counter.increment(by: -5)
    #expect(counter.value == 42)
    let sample = try #require(Support.current(spool, "requests", [MetricDimension("route", "/a")]))
    #expect(sample.value == .integer(42))
    #expect(sample.kind == .counter)
    #expect(sample.startNanoseconds == started)
    clock.advance()
    counter.reset()
    counter.increment(by: 3)
    let reset = try #require(Support.current(spool, "requests", [MetricDimension("route", "/a")]))
    #expect(reset.value == .integer(3))
    #expect(reset.startNanoseconds == started + 1_000_000_000)
    try spool.close()
  }

  @Test("handles made for the same label and dimensions in any order share one series")
  func sameSeries() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let first = spool.counter(label: "hits", dimensions: [("b", "2"), ("a", "1")])
    let second = spool.counter(label: "hits", dimensions: [("a", "1"), ("b", "2")])
    first.increment(by: 2)
    second.increment(by: 3)
    #expect(first.value == 5)
    #expect(spool.currentSamples().count == 1)
    #expect(
      spool.currentSamples().first?.dimensions == [
        MetricDimension("a", "1"), MetricDimension("b", "2"),
      ])
    // The same name as another kind is another series.
    spool.gauge(label: "hits").set(1)
    #expect(spool.currentSamples().count == 2)
    try spool.close()
  }

  @Test("a floating-point counter sums positive doubles and ignores others")
  func floatingPointCounter() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let counter = spool.floatingPointCounter(label: "bytes")
    counter.increment(by: 0.25)
    counter.increment(by: 1.5)
    counter.increment(by: -1)
    counter.increment(by: .nan)
    #expect(counter.value == 1.75)
    #expect(Support.current(spool, "bytes")?.value == .double(1.75))
    #expect(Support.current(spool, "bytes")?.kind == .floatingPointCounter)
    counter.reset()
    #expect(counter.value == 0)
    try spool.close()
  }

  @Test("a gauge is set, moved up and down, and sampled only once it was set")
  func gauge() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let gauge = spool.gauge(label: "queue.depth")
    try spool.flush()
    #expect(try Support.journalSamples(spool).isEmpty)
    gauge.set(10)
    gauge.increment(by: 2.5)
    gauge.decrement(by: 4)
    #expect(gauge.value == 8.5)
    gauge.set(-3.25)
    #expect(Support.current(spool, "queue.depth")?.value == .double(-3.25))
    try spool.flush()
    let samples = try Support.journalSamples(spool)
    #expect(samples.map(\.1.value) == [.double(-3.25)])
    #expect(samples.first?.1.kind == .gauge)
    try spool.close()
  }

  @Test("a histogram counts each value in the bucket (bounds[i-1], bounds[i]], with sum, min, max")
  func histogramBuckets() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let histogram = spool.histogram(label: "size")
    #expect(histogram.bounds == MetricHistogram.defaultBounds)
    // Each bound lands in its own bucket; just above it, in the next.
    for bound in MetricHistogram.defaultBounds { histogram.record(bound) }
    for bound in MetricHistogram.defaultBounds { histogram.record(bound.nextUp) }
    histogram.record(-1)
    histogram.record(20_000)
    histogram.record(.nan)
    let value = histogram.value
    var expected = [UInt64](repeating: 0, count: 16)
    for index in 0..<15 { expected[index] += 1 }  // the bounds themselves
    for index in 1...15 { expected[index] += 1 }  // just above each bound
    expected[0] += 1  // -1
    expected[15] += 1  // 20 000
    #expect(value.bucketCounts == expected)
    #expect(value.count == 32)
    #expect(value.min == -1)
    #expect(value.max == 20_000)
    let bounds = MetricHistogram.defaultBounds
    var sum: Double = 0
    for bound in bounds { sum += bound }
    for bound in bounds { sum += bound.nextUp }
    #expect(value.sum == sum - 1 + 20_000)
    try spool.close()
  }

  @Test("bucket index follows OpenTelemetry at, below and above every bound")
  func bucketIndex() {
    let bounds: [Double] = [0, 5, 10]
    #expect(MetricHistogram.bucketIndex(of: -.infinity, in: bounds) == 0)
    #expect(MetricHistogram.bucketIndex(of: 0, in: bounds) == 0)
    #expect(MetricHistogram.bucketIndex(of: 0.1, in: bounds) == 1)
    #expect(MetricHistogram.bucketIndex(of: 5, in: bounds) == 1)
    #expect(MetricHistogram.bucketIndex(of: 5.000001, in: bounds) == 2)
    #expect(MetricHistogram.bucketIndex(of: 10, in: bounds) == 2)
    #expect(MetricHistogram.bucketIndex(of: 10.5, in: bounds) == 3)
    #expect(MetricHistogram.bucketIndex(of: .infinity, in: bounds) == 3)
    #expect(MetricHistogram.bucketIndex(of: 3, in: []) == 0)
  }

  @Test("custom bounds are part of the identity; invalid ones give the default")
  func customBounds() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let custom = spool.histogram(label: "h", bounds: [1, 2])
    custom.record(1.5)
    #expect(custom.value.bucketCounts == [0, 1, 0])
    #expect(spool.histogram(label: "h", bounds: [2, 1]).bounds == MetricHistogram.defaultBounds)
    #expect(spool.histogram(label: "h", bounds: [1, .infinity]).bounds.count == 15)
    #expect(spool.seriesCount == 2)
    try spool.close()
  }

  @Test("an empty histogram has no min or max")
  func emptyHistogram() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let value = spool.histogram(label: "h").value
    #expect(value.min == nil && value.max == nil && value.count == 0 && value.sum == 0)
    try spool.close()
  }

  @Test("a timer is a histogram of nanoseconds, unit ns, with the default bounds in ms")
  func timer() throws {
    let spool = try Self.open(SimulatedFileSystem())
    let timer = spool.timer(label: "latency")
    #expect(timer.bounds == MetricHistogram.defaultBounds.map { $0 * 1_000_000 })
    timer.recordNanoseconds(7_000_000)  // 7 ms: the bucket (5 ms, 10 ms]
    let sample = try #require(Support.current(spool, "latency"))
    #expect(sample.unit == "ns")
    guard case .histogram(let histogram) = sample.value else {
      Issue.record("not a histogram: \(sample)")
      return
    }
    #expect(histogram.bucketCounts[2] == 1)
    #expect(histogram.sum == 7_000_000)
    try spool.close()
  }

  @Test("a flush samples only series that changed since their last sample")
  func changedOnly() throws {
    let clock = TestClock()
    let spool = try Self.open(SimulatedFileSystem(), Support.options(clock: clock))
    let a = spool.counter(label: "a")
    let b = spool.counter(label: "b")
    a.increment()
    b.increment()
    try spool.flush()
    clock.advance()
    a.increment()
    try spool.flush()
    try spool.flush()
    let samples = try Support.journalSamples(spool)
    #expect(samples.map(\.1.name) == ["a", "b", "a"])
    #expect(samples.map(\.1.value) == [.integer(1), .integer(1), .integer(2)])
    #expect(samples[2].1.timeNanoseconds == samples[0].1.timeNanoseconds + 1_000_000_000)
    #expect(samples.map(\.0) == [1, 1, 2])
    try spool.close()
  }

  @Test("reopened in the same boot, every series continues exactly, unflushed changes included")
  func reopenSameBoot() throws {
    let disk = SimulatedFileSystem()
    let clock = TestClock()
    let first = try Self.open(disk, Support.options(clock: clock))
    let counter = first.counter(label: "c", dimensions: [("k", "v")])
    counter.increment(by: 5)
    try first.flush()
    counter.increment(by: 7)  // not flushed
    first.histogram(label: "h").record(3)
    first.gauge(label: "g").set(9)
    let start = Support.current(first, "c", [MetricDimension("k", "v")])?.startNanoseconds
    // The process ends without closing: the kernel keeps what it stored.
    clock.advance()
    let second = try Self.open(disk.copy(), Support.options(clock: clock))
    #expect(second.recovery.rebuiltReason == nil)
    let continued = try #require(Support.current(second, "c", [MetricDimension("k", "v")]))
    #expect(continued.value == .integer(12))
    #expect(continued.startNanoseconds == start)
    #expect(Support.current(second, "g")?.value == .double(9))
    guard case .histogram(let histogram) = Support.current(second, "h")?.value else {
      Issue.record("no histogram")
      return
    }
    #expect(histogram.count == 1 && histogram.sum == 3)
    // Only what changed since its last sample is sampled.
    try second.flush()
    #expect(try Support.journalSamples(second).map(\.1.name) == ["c", "c", "h", "g"])
    try second.close()
    _ = first
  }

  @Test("after a restart of the machine, every series continues from its last synced sample")
  func reopenAfterReboot() throws {
    let disk = SimulatedFileSystem()
    let events = MetricsEventLog()
    let first = try Self.open(disk, Support.options(boot: Support.bootA))
    let counter = first.counter(label: "c")
    counter.increment(by: 5)
    try first.flush()
    counter.increment(by: 7)  // lost with the machine
    let rebooted = disk.copy()
    let second = try Self.open(rebooted, Support.options(boot: Support.bootB), events: events.sink)
    #expect(second.recovery.rebuiltReason != nil)
    #expect(Support.current(second, "c")?.value == .integer(5))
    #expect(events.named("spool.metrics_live_rebuilt").count == 1)
    #expect(rebooted.allPaths().contains("metrics/live-0.map.stale"))
    // It continues from there, and the next flush does not sample an unchanged series.
    second.counter(label: "c").increment()
    try second.flush()
    #expect(try Support.journalSamples(second).map(\.1.value) == [.integer(5), .integer(6)])
    try second.close()
    _ = first
  }

  @Test("an observed counter is published at every flush and starts again when it goes down")
  func observedCounter() throws {
    let clock = TestClock()
    let spool = try Self.open(SimulatedFileSystem(), Support.options(clock: clock))
    let source = SleepingLock<UInt64>(3)
    let observation = spool.observeCounter(
      label: "stoic.spool.dropped", dimensions: [("reason", "quota")]
    ) { source.withLock { $0 } }
    try spool.flush()
    source.withLock { $0 = 10 }
    try spool.flush()
    try spool.flush()
    clock.advance()
    source.withLock { $0 = 2 }
    try spool.flush()
    observation.cancel()
    source.withLock { $0 = 50 }
    try spool.flush()
    let samples = try Support.journalSamples(spool).map(\.1)
    #expect(samples.map(\.value) == [.integer(3), .integer(10), .integer(2)])
    #expect(samples[2].startNanoseconds == samples[0].startNanoseconds + 1_000_000_000)
    try spool.close()
  }

  @Test("a closed spool refuses flushes; its handles still count into the live file")
  func closed() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.open(disk)
    let counter = spool.counter(label: "c")
    counter.increment()
    try spool.close()
    try spool.close()
    #expect(throws: StoreError.self) { try spool.flush() }
    counter.increment()
    let late = spool.counter(label: "late")
    late.increment()
    let reopened = try Self.open(disk)
    #expect(Support.current(reopened, "c")?.value == .integer(2))
    #expect(Support.current(reopened, "late") == nil)
    try reopened.close()
  }

  @Test("a second opener of the same spool gets .locked")
  func locked() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.open(disk)
    #expect {
      _ = try Self.open(disk)
    } throws: { ($0 as? StoreError)?.code == .locked }
    try spool.close()
  }
}

@Suite("README metrics example")
struct MetricsReadmeExampleTests {
  @Test("the README's metrics example counts, times, samples and drops")
  func readmeExample() throws {
    let disk = SimulatedFileSystem()
    let metrics = try MetricsSpool.open(
      directory: "/var/lib/app/telemetry/metrics", fileSystem: disk,
      options: MetricsOptions(flushInterval: nil))
    let uploads = metrics.counter(label: "uploads", dimensions: [("kind", "photo")])
    uploads.increment()
    metrics.timer(label: "upload.duration").recordNanoseconds(12_000_000)
    metrics.gauge(label: "queue.depth").set(4)
    metrics.histogram(label: "upload.bytes").record(52_000)
    try metrics.flush()
    var forwarded: [String] = []
    var lastForwarded: UInt64 = 0
    try metrics.forEachSample(from: 1) { sequence, sample in
      forwarded.append(sample.name)
      lastForwarded = sequence
    }
    #expect(forwarded == ["uploads", "upload.duration", "queue.depth", "upload.bytes"])
    try metrics.dropThrough(lastForwarded)
    #expect(try MetricsTestSupport.journalSamples(metrics).isEmpty)
    try metrics.close()
  }
}
