// Bootstraps LoggingSystem and MetricsSystem, which swift-log and swift-metrics allow once per
// process: the only test of this test process that does (every other one turns both off).
#if SwiftLog && SwiftMetrics
  import Logging
  import Metrics
  import Stoic
  import StoicStore
  import StoicTelemetry
  import StoicTesting
  import Testing

  #if Tracing
    import StoicTracing
    import Tracing
  #endif

  @Suite("Stoic.bootstrap with swift-log and swift-metrics")
  struct StoicSystemsTests {
    @Test("no endpoint: Logger and Counter write into the spool, kept for a later run")
    func loggerAndCounterIntoTheSpool() async throws {
      let disk = SimulatedFileSystem()
      let telemetry = try await Stoic.bootstrap(directory: "/data/telemetry", environment: [:]) {
        $0.fileSystem = disk
        $0.logLevel = .debug
      }
      #expect(telemetry.forwarder == nil)
      let logger = Logger(label: "app")
      logger.debug("starting", metadata: ["seq": "0"])
      logger.info("started", metadata: ["seq": "1"])
      logger.trace("below the level")
      Counter(label: "app.requests").increment(by: 5)
      #if Tracing
        // Spans through InstrumentationSystem into the span spool; a record logged inside one
        // carries its ids, with nothing set by the app.
        let spanContext = withSpan("work") { span -> StoicSpanContext? in
          span.attributes["job"] = "import"
          logger.info("inside", metadata: ["seq": "2"])
          return span.context.stoicSpanContext
        }
        let inside = try #require(spanContext)
      #endif
      let report = await telemetry.shutdown(timeout: .seconds(2))
      #expect(report.errors.isEmpty)
      #expect(report.logRecordsLeft >= 2)
      let spool = try TelemetrySpool.open(at: "/data/telemetry", fileSystem: disk)
      #if Tracing
        #expect(try StoicTestSupport.spooled(spool, label: "app") == [0, 1, 2])
        let record = try #require(
          try spool.logs.entries().compactMap(\.record).first { $0.message == "inside" })
        #expect(record.metadata["trace_id"] == .string(inside.traceID.description))
        #expect(record.metadata["span_id"] == .string(inside.spanID.description))
        var ended: [SpanEnd] = []
        try spool.spans?.forEachSpanRecord { (_, decoded) throws(StoreError) in
          if case .success(.end(let end)) = decoded { ended.append(end) }
        }
        #expect(ended.map(\.start.name) == ["work"])
        #expect(ended.first?.attributes["job"] == .string("import"))
        #expect(ended.first?.isUnfinished == false)
      #else
        #expect(try StoicTestSupport.spooled(spool, label: "app") == [0, 1])
      #endif
      #expect(try StoicTestSupport.sampledCounter(spool, name: "app.requests") == 5)
      try spool.close()
    }
  }
#endif
