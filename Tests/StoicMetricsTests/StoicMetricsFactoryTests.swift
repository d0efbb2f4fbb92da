// Built with the `SwiftMetrics` trait only (`swift test --traits SwiftMetrics`); a default build
// compiles this target empty.
#if SwiftMetrics
  import CoreMetrics
  import StoicMetrics
  import StoicStore
  import StoicTelemetry
  import StoicTesting
  import Testing

  @Suite("StoicMetricsFactory: every swift-metrics kind lands in the metrics spool")
  struct StoicMetricsFactoryTests {
    static func spool() throws -> MetricsSpool {
      try MetricsSpool.open(
        directory: "metrics", fileSystem: SimulatedFileSystem(),
        options: MetricsOptions(flushInterval: nil))
    }

    static func sample(_ spool: MetricsSpool, _ name: String) -> MetricSample? {
      spool.currentSamples().first { $0.name == name }
    }

    @Test("counters, floating-point counters, meters, recorders and timers, with dimensions")
    func everyKind() throws {
      let spool = try Self.spool()
      let factory = StoicMetricsFactory(metrics: spool)
      let counter = Counter(label: "requests", dimensions: [("route", "/a")], factory: factory)
      counter.increment(by: 3)
      counter.increment()
      let doubles = FloatingPointCounter(label: "bytes", factory: factory)
      doubles.increment(by: 1.5)
      let meter = Meter(label: "connections", factory: factory)
      meter.set(Int64(5))
      meter.increment(by: 2)
      meter.decrement(by: 1)
      let histogram = Recorder(label: "size", factory: factory)
      histogram.record(Int64(7))
      histogram.record(12.5)
      let gauge = Gauge(label: "temperature", factory: factory)
      gauge.record(21.5)
      gauge.record(Int64(22))
      let timer = CoreMetrics.Timer(label: "latency", factory: factory)
      timer.recordNanoseconds(2_000_000)
      timer.recordMilliseconds(30)

      let requests = try #require(Self.sample(spool, "requests"))
      #expect(requests.value == .integer(4))
      #expect(requests.dimensions == [MetricDimension("route", "/a")])
      #expect(Self.sample(spool, "bytes")?.value == .double(1.5))
      #expect(Self.sample(spool, "connections")?.value == .double(6))
      #expect(Self.sample(spool, "connections")?.kind == .gauge)
      #expect(Self.sample(spool, "temperature")?.value == .double(22))
      guard case .histogram(let size) = Self.sample(spool, "size")?.value,
        case .histogram(let latency) = Self.sample(spool, "latency")?.value
      else {
        Issue.record("recorder or timer is not a histogram")
        return
      }
      #expect(size.count == 2 && size.sum == 19.5 && size.bounds == MetricHistogram.defaultBounds)
      #expect(latency.count == 2 && latency.sum == 32_000_000)
      #expect(Self.sample(spool, "latency")?.unit == "ns")
      counter.reset()
      #expect(Self.sample(spool, "requests")?.value == .integer(0))
      try spool.close()
    }

    @Test("destroying a metric keeps its series; making it again continues it")
    func destroy() throws {
      let spool = try Self.spool()
      let factory = StoicMetricsFactory(metrics: spool)
      let counter = Counter(label: "c", factory: factory)
      counter.increment(by: 2)
      counter.destroy()
      Counter(label: "c", factory: factory).increment()
      #expect(Self.sample(spool, "c")?.value == .integer(3))
      for destroyed in [
        { FloatingPointCounter(label: "f", factory: factory).destroy() },
        { Meter(label: "m", factory: factory).destroy() },
        { Recorder(label: "r", factory: factory).destroy() },
        { CoreMetrics.Timer(label: "t", factory: factory).destroy() },
      ] {
        destroyed()
      }
      #expect(spool.seriesCount == 5)
      try spool.close()
    }
  }
#endif
