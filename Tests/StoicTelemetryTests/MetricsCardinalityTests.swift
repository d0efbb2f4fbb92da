import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The cardinality limit: series of a metric name beyond it fold into one overflow series
/// marked `otel.metric.overflow=true`, each fold counted in a series of its own and reported.
@Suite("MetricsSpool cardinality limit")
struct MetricsCardinalityTests {
  typealias Support = MetricsTestSupport

  @Test("up to the limit nothing folds; beyond it, series fold into the overflow series")
  func folds() throws {
    let disk = SimulatedFileSystem()
    let events = MetricsEventLog()
    let spool = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(limit: 3),
      events: events.sink)
    let kept = (0..<3).map { spool.counter(label: "m", dimensions: [("id", "\($0)")]) }
    for counter in kept { counter.increment() }
    #expect(spool.foldedSeriesCount == 0)
    #expect(events.named("spool.metrics_series_folded").isEmpty)
    let folded = (3..<6).map { spool.counter(label: "m", dimensions: [("id", "\($0)")]) }
    for counter in folded { counter.increment(by: 10) }
    // An existing series is still its own.
    spool.counter(label: "m", dimensions: [("id", "1")]).increment()
    let overflow = try #require(Support.current(spool, "m", [.overflow]))
    #expect(overflow.value == .integer(30))
    #expect(overflow.isOverflow)
    #expect(Support.current(spool, "m", [MetricDimension("id", "1")])?.value == .integer(2))
    #expect(spool.foldedSeriesCount == 3)
    let foldCounter = Support.current(
      spool, MetricsSpool.foldedSeriesMetric, [MetricDimension("metric", "m")])
    #expect(foldCounter?.value == .integer(3))
    // The first fold is reported at once; the rest at the next flush, in one event.
    let first = events.named("spool.metrics_series_folded")
    #expect(first.count == 1)
    #expect(first.first?.fields.first { $0.0 == "folded" }?.1 == "1")
    try spool.flush()
    let reports = events.named("spool.metrics_series_folded")
    #expect(reports.count == 2)
    #expect(reports.last?.fields.first { $0.0 == "folded" }?.1 == "2")
    #expect(reports.last?.fields.first { $0.0 == "total" }?.1 == "3")
    try spool.flush()
    #expect(events.named("spool.metrics_series_folded").count == 2)
    // Another kind of the same name has a limit of its own.
    spool.gauge(label: "m", dimensions: [("id", "9")]).set(1)
    #expect(Support.current(spool, "m", [MetricDimension("id", "9")])?.kind == .gauge)
    // The samples carry the overflow series and the fold counter, for the collector's side.
    let names = try Support.journalSamples(spool).map(\.1)
    #expect(names.contains { $0.isOverflow && $0.name == "m" })
    #expect(names.contains { $0.name == MetricsSpool.foldedSeriesMetric })
    try spool.close()
  }

  @Test("the limit and the fold count hold across a reopen")
  func acrossReopen() throws {
    let disk = SimulatedFileSystem()
    let first = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(limit: 2))
    for id in 0..<3 { first.counter(label: "m", dimensions: [("id", "\(id)")]).increment() }
    try first.close()
    let second = try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(limit: 2))
    second.counter(label: "m", dimensions: [("id", "7")]).increment()
    #expect(second.foldedSeriesCount == 2)
    #expect(Support.current(second, "m", [.overflow])?.value == .integer(2))
    try second.close()
  }

  @Test("a limit of zero folds every series of every name")
  func zeroLimit() throws {
    let spool = try MetricsSpool.open(
      directory: "metrics", fileSystem: SimulatedFileSystem(), options: Support.options(limit: 0))
    spool.counter(label: "a").increment()
    spool.counter(label: "b", dimensions: [("x", "y")]).increment()
    #expect(Support.current(spool, "a", [.overflow])?.value == .integer(1))
    #expect(Support.current(spool, "b", [.overflow])?.value == .integer(1))
    #expect(spool.foldedSeriesCount == 2)
    try spool.close()
  }
}
