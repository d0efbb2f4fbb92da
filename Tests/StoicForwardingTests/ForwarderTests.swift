import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

@testable import StoicForwarding

/// The forwarder with a receiver in memory: batches over spool ranges, keys, classification,
/// release of acknowledged records.
@Suite("Forwarder")
struct ForwarderTests {
  typealias Fixture = ForwarderFixture

  @Test("drains logs and metrics in order, in batches of N under range keys, and empties the spool")
  func drainsInOrder() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<23 { Fixture.log(spool, index) }
    spool.metrics.counter(label: "app.records").increment(by: 23)
    spool.metrics.histogram(label: "app.size").record(120)
    try spool.flush()
    let receiver = FakeReceiver()
    let forwarder = try await Fixture.open(spool, receiver, disk: disk)
    let report = try await forwarder.drain()
    #expect(try Fixture.appSequences(receiver) == Array(0..<23))
    #expect(report.haltedBecause == nil)
    #expect(report.logRecordsDelivered == spool.logs.lastSequence.asInt)
    #expect(report.dataPointsDelivered > 0)
    #expect(try receiver.storedMetricNames().contains("app.records"))
    let requests = receiver.state.withLock { $0.requests }
    let logKeys = requests.filter { $0.path == "/v1/logs" }.map(\.key)
    #expect(logKeys.first == "\(spool.identity.hex)-l-1-5")
    // Every batch at most 5 records, keys naming consecutive ranges from 1.
    var next: UInt64 = 1
    for key in logKeys {
      let parts = key.split(separator: "-")
      let first = try #require(UInt64(parts[2]))
      let last = try #require(UInt64(parts[3]))
      #expect(first == next && last >= first && last - first < 5, "\(key)")
      next = last + 1
    }
    #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    #expect(spool.metrics.lowWaterMark == spool.metrics.lastSequence)
    #expect(await forwarder.pending.isEmpty)
    // A second drain has nothing to send.
    let again = try await forwarder.drain()
    #expect(again.batchesFormed == 0 && again.attempts == 0)
    try await forwarder.close()
    try spool.close()
  }

  @Test(
    "several batches in flight, prepared on one thread or two: each record once, failures in the window retried, spool empty",
    arguments: [1, 2])
  func severalBatchesInFlight(preparers: Int) async throws {
    let (disk, spool) = try Fixture.filledSpool(60)
    let receiver = FakeReceiver(script: [.store, .status(503), .dropResponse, .networkError])
    var options = Fixture.options(inFlight: 4)
    options.preparers = preparers
    let forwarder = try await Fixture.open(spool, receiver, disk: disk, options: options)
    let report = try await forwarder.drain()
    #expect(report.haltedBecause == nil)
    #expect(report.logRecordsDelivered == spool.logs.lastSequence.asInt)
    #expect(try Fixture.appSequences(receiver).sorted() == Array(0..<60))
    let state = receiver.state.withLock { $0 }
    #expect(state.conflicts.isEmpty, "a key came back with another body: \(state.conflicts)")
    #expect(state.duplicates == 1)
    #expect(state.requests.count == state.stored.count + 3)
    #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    #expect(await forwarder.pending.isEmpty)
    try await forwarder.close()
    try spool.close()
  }

  @Test("a drain reports its progress after each round, growing to what it returns")
  func drainProgress() async throws {
    let (disk, spool) = try Fixture.filledSpool(60)
    let forwarder = try await Fixture.open(spool, FakeReceiver(), disk: disk)
    let seen = SleepingLock<[Int]>([])
    let report = try await forwarder.drain { done in
      seen.withLock { $0.append(done.logRecordsDelivered) }
    }
    let delivered = seen.withLock { $0 }
    #expect(delivered.count > 1, "one report per round: \(delivered)")
    #expect(delivered == delivered.sorted())
    #expect(delivered.last == report.logRecordsDelivered)
    #expect(report.logRecordsDelivered == spool.logs.lastSequence.asInt)
    try await forwarder.close()
    try spool.close()
  }

  @Test("resource, scope, severity, attributes and sorted metadata in the body")
  func bodyShape() async throws {
    try await Fixture.run(records: 2...2, script: []) { spool, receiver, forwarder in
      try await forwarder.drain()
      let body = try #require(receiver.state.withLock { $0.requests.first?.body })
      let request = try OTLP.ExportLogsServiceRequest(decoding: body, as: .protobuf)
      let resource = try #require(request.resourceLogs.first?.resource)
      #expect(resource.stringAttribute("service.name") == "forwarder-tests")
      #expect(resource.stringAttribute("service.instance.id") == spool.identity.hex)
      #expect(request.resourceLogs.first?.scopeLogs.first?.scope?.name == "stoic")
      let record = try #require(
        request.resourceLogs.first?.scopeLogs.first?.logRecords.first { $0.string("seq") == "2" })
      #expect(record.severityNumber == .warn && record.severityText == "WARNING")
      #expect(record.body == .string("record 2"))
      #expect(record.attributes.prefix(3).map(\.key) == ["nested", "seq", "user"])
      #expect(
        record.attribute("nested")
          == .kvlist([
            OTLP.KeyValue("a", .array([.string("x"), .string("y")])),
            OTLP.KeyValue("b", .string("2")),
          ]))
      #expect(record.integer("code.line.number") == 2)
      #expect(record.timeUnixNano > 0 && record.observedTimeUnixNano == record.timeUnixNano)
    }
  }

  @Test("503 with Retry-After, then 200: delivered once, after the retry")
  func transientThenDelivered() async throws {
    try await Fixture.run(records: 0..<3, script: [.status(503, retryAfter: "1"), .status(429)]) {
      spool, receiver, forwarder in
      let report = try await forwarder.drain()
      #expect(report.haltedBecause == nil)
      #expect(report.attempts == 3)
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2])
      let keys = receiver.state.withLock { $0.requests.map(\.key) }
      #expect(Set(keys).count == 1, "one batch, sent three times under one key: \(keys)")
    }
  }

  @Test("network errors past the retry budget halt the drain; the next drain sends the same key")
  func networkErrorHaltsThenResumes() async throws {
    try await Fixture.run(records: 0..<4, script: [.networkError, .networkError, .networkError]) {
      spool, receiver, forwarder in
      let first = try await forwarder.drain()
      #expect(first.haltedBecause != nil)
      #expect(spool.logs.lowWaterMark == 0, "nothing released before an acknowledgement")
      let second = try await forwarder.drain()
      #expect(second.haltedBecause == nil)
      let keys = receiver.state.withLock { $0.requests.map(\.key) }
      #expect(Set(keys).count == 1 && keys.count == 4)
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2, 3])
    }
  }

  @Test("a 400 parks its batch with its records, the rest are delivered; requeue delivers it")
  func permanentParks() async throws {
    let events = EventLog()
    try await Fixture.run(records: 0..<12, script: [.store, .status(400)], events: events) {
      spool, receiver, forwarder in
      let report = try await forwarder.drain()
      #expect(report.batchesParked == 1)
      let parked = await forwarder.parked
      #expect(parked.count == 1)
      let range = try #require(parked.first?.item)
      #expect(range.first == 6 && range.last == 10)
      #expect(parked.first?.lastError?.contains("400") == true)
      #expect(events.named(ForwardingEvents.batchParked).count == 1)
      // The batch before it was released; the parked batch keeps its records (and those after).
      #expect(spool.logs.lowWaterMark == 5)
      // The rest was delivered: everything but 5…9 (sequences 6…10).
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2, 3, 4, 10, 11])
      try await forwarder.outbox.requeue(parked[0].key)
      try await forwarder.drain()
      #expect(try Fixture.appSequences(receiver).sorted() == Array(0...11))
      #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    }
  }

  @Test("an OTLP partial success is delivered, its rejected count reported, never resent")
  func partialSuccess() async throws {
    let events = EventLog()
    try await Fixture.run(records: 0..<3, script: [.partial(rejected: 2)], events: events) {
      spool, receiver, forwarder in
      let report = try await forwarder.drain()
      #expect(report.rejectedByReceiver == 2)
      #expect(report.batchesDelivered == 1 && report.attempts == 1)
      #expect(events.named(ForwardingEvents.recordsRejected).first?["rejected"] == "2")
      #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    }
  }

  @Test("a dropped response: resent under the same key with the same body, suppressed")
  func droppedResponse() async throws {
    try await Fixture.run(records: 0..<3, script: [.dropResponse]) { spool, receiver, forwarder in
      try await forwarder.drain()
      let state = receiver.state.withLock { $0 }
      #expect(state.requests.count == 2 && state.duplicates == 1 && state.conflicts.isEmpty)
      #expect(state.requests[0].key == state.requests[1].key)
      #expect(state.requests[0].body == state.requests[1].body)
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2])
    }
  }

  @Test("an outbox entry lost after its send: the batch is formed again with the same key and body")
  func lostOutboxEntry() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<8 { Fixture.log(spool, index) }
    let receiver = FakeReceiver(script: [.dropResponse, .networkError, .networkError])
    var forwarder = try await Fixture.open(spool, receiver, disk: disk)
    let first = try await forwarder.drain()
    #expect(first.haltedBecause != nil)
    try await forwarder.close()
    // The outbox's whole folder is gone: every entry with it.
    for name in try disk.list(StorePath.join(Fixture.root, Forwarder.outboxFolder)) {
      try disk.remove(StorePath.join(StorePath.join(Fixture.root, Forwarder.outboxFolder), name))
    }
    forwarder = try await Fixture.open(spool, receiver, disk: disk)
    try await forwarder.drain()
    let state = receiver.state.withLock { $0 }
    #expect(state.conflicts.isEmpty, "a key came back with another body: \(state.conflicts)")
    #expect(state.duplicates == 1)
    #expect(state.requests[3].key == state.requests[0].key)
    #expect(state.requests[3].body == state.requests[0].body)
    #expect(try Fixture.appSequences(receiver) == Array(0..<8))
    try await forwarder.close()
    try spool.close()
  }

  @Test("acknowledged but not released before a restart: found by key, not sent again")
  func deliveredBeforeRestart() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<3 { Fixture.log(spool, index) }
    let receiver = FakeReceiver()
    let events = EventLog()
    var forwarder = try await Fixture.open(spool, receiver, disk: disk, events: events.sink)
    // Form and deliver through the outbox alone: acknowledged, the spool not released.
    let range = try #require(
      try SpoolBatchSource(spool: spool, options: Fixture.options()).formBatch(.logs, from: 1))
    try await forwarder.outbox.enqueue(range, key: range.key(spool: spool.identity))
    try await forwarder.outbox.acknowledge(range.key(spool: spool.identity))
    try await forwarder.close()
    Fixture.log(spool, 3)
    forwarder = try await Fixture.open(spool, receiver, disk: disk, events: events.sink)
    let report = try await forwarder.drain()
    #expect(report.batchesFoundDelivered == 1)
    #expect(events.named(ForwardingEvents.batchFoundDelivered).count == 1)
    #expect(try Fixture.appSequences(receiver) == [3])
    #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    try await forwarder.close()
    try spool.close()
  }

  @Test("of the batches delivered before a restart, the longest from the cursor is found")
  func longestDeliveredBeforeRestart() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<5 { Fixture.log(spool, index) }
    let receiver = FakeReceiver()
    let events = EventLog()
    var forwarder = try await Fixture.open(spool, receiver, disk: disk, events: events.sink)
    // Two batches from the first record acknowledged (1…1 and 1…3), the spool not released; a
    // batch from there now would take all five.
    for last: UInt64 in [1, 3] {
      let key = SpoolRange(stream: .logs, first: 1, last: last).key(spool: spool.identity)
      try await forwarder.outbox.enqueue(SpoolRange(stream: .logs, first: 1, last: last), key: key)
      try await forwarder.outbox.acknowledge(key)
    }
    try await forwarder.close()
    forwarder = try await Fixture.open(spool, receiver, disk: disk, events: events.sink)
    let report = try await forwarder.drain()
    #expect(report.batchesFoundDelivered == 1)
    let found = events.named(ForwardingEvents.batchFoundDelivered)
    #expect(found.count == 1)
    #expect(found.first?["range"] == "logs 1…3")
    #expect(try Fixture.appSequences(receiver) == [3, 4])
    #expect(spool.logs.lowWaterMark == spool.logs.lastSequence)
    try await forwarder.close()
    try spool.close()
  }

  @Test("user headers go with every request; no header value reaches an event")
  func headers() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    Fixture.log(spool, 0)
    let receiver = FakeReceiver(script: [.status(400)])
    var configuration = OTLPExporterConfiguration(endpoint: "http://127.0.0.1:4318")
    try configuration.addHeaders(fromEnvironment: [
      "STOIC_OTLP_HEADERS": "Authorization=Bearer%20t0ken"
    ])
    let events = EventLog()
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: OTLPExporter(configuration: configuration, transport: receiver),
      options: Fixture.options(), fileSystem: disk, events: events.sink)
    try await forwarder.drain()
    let request = try #require(receiver.state.withLock { $0.requests.first })
    #expect(request.headers["Authorization"] == "Bearer t0ken")
    #expect(!events.events.withLock { $0 }.isEmpty)
    #expect(!events.events.withLock { $0 }.contains { "\($0)".contains("t0ken") })
    try await forwarder.close()
    try spool.close()
  }

  @Test("the background loop backs off while the receiver is unreachable, then delivers")
  func backgroundLoop() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<6 { Fixture.log(spool, index) }
    let receiver = FakeReceiver(script: Array(repeating: .networkError, count: 7))
    let events = EventLog()
    var options = Fixture.options()
    options.interval = .milliseconds(5)
    options.initialBackoff = .milliseconds(5)
    options.maximumBackoff = .milliseconds(20)
    let forwarder = try await Fixture.open(
      spool, receiver, disk: disk, options: options, events: events.sink)
    await forwarder.start()
    await forwarder.start()  // a second start does nothing
    var waited = 0
    while try Fixture.appSequences(receiver).count < 6, waited < 1000 {
      try await Task.sleep(for: .milliseconds(10))
      waited += 1
    }
    await forwarder.stop()
    #expect(try Fixture.appSequences(receiver) == Array(0..<6))
    #expect(events.named(ForwardingEvents.drainHalted).count >= 2)
    #expect(await forwarder.totals.batchesDelivered == 2)
    try await forwarder.close()
    try spool.close()
  }

  @Test("backoff doubles from the first wait up to the cap, with jitter in its upper half")
  func backoff() {
    let options = ForwarderOptions(
      initialBackoff: .seconds(1), maximumBackoff: .seconds(60))
    #expect(options.backoff(afterFailures: 1, random: 1) == .seconds(1))
    #expect(options.backoff(afterFailures: 1, random: 0) == .milliseconds(500))
    #expect(options.backoff(afterFailures: 3, random: 1) == .seconds(4))
    #expect(options.backoff(afterFailures: 30, random: 1) == .seconds(60))
  }

  @Test("a receiver's Retry-After holds the outbox back no longer than the longest backoff")
  func retryAfterHoldIsTheLongestBackoff() {
    let options = ForwarderOptions(maximumBackoff: .seconds(60))
    #expect(options.outbox.retryPolicy.longestHold == .seconds(300))
    #expect(options.outboxOptions.retryPolicy.longestHold == .seconds(60))
    var outbox = OutboxOptions()
    outbox.retryPolicy = RetryPolicy(longestHold: .seconds(5))
    let shorter = ForwarderOptions(outbox: outbox, maximumBackoff: .seconds(60))
    #expect(shorter.outboxOptions.retryPolicy.longestHold == .seconds(5))
  }

  @Test("a Retry-After on the logs holds only the logs: the metrics go in the same drain")
  func retryAfterHoldsOneSignal() async throws {
    try await Fixture.run(records: 0..<3, script: [.status(429, retryAfter: "999999999")]) {
      spool, receiver, forwarder in
      spool.metrics.counter(label: "jobs").increment(by: 4)
      try spool.metrics.flush()
      let report = try await forwarder.drain()
      #expect(report.held == [.logs])
      #expect(report.stoppedOnlyByHold)
      #expect(report.dataPointsDelivered >= 1)
      #expect(report.logRecordsDelivered == 0)
      let paths = receiver.state.withLock { $0.requests.map(\.path) }
      #expect(paths.first == "/v1/logs")
      #expect(paths.contains("/v1/metrics"))
      // Another drain while held: the logs are not asked again; new metrics still go.
      spool.metrics.counter(label: "jobs").increment()
      try spool.metrics.flush()
      let again = try await forwarder.drain()
      #expect(again.dataPointsDelivered >= 1)
      #expect(receiver.state.withLock { $0.requests.filter { $0.path == "/v1/logs" }.count } == 1)
      #expect(await forwarder.pending.allSatisfy { $0.item.stream == .logs })
    }
  }

  @Test("metrics as OTLP: monotonic cumulative sums, gauges, histograms with explicit bounds")
  func metricsShape() async throws {
    try await Fixture.run(records: 0..<0) { spool, receiver, forwarder in
      spool.metrics.counter(label: "c", dimensions: [("k", "v")]).increment(by: 5)
      spool.metrics.floatingPointCounter(label: "f").increment(by: 1.5)
      spool.metrics.gauge(label: "g").set(-2.25)
      let histogram = spool.metrics.histogram(label: "h")
      for value in [1.0, 30, 700, 20_000] { histogram.record(value) }
      try spool.metrics.flush()
      try await forwarder.drain()
      let body = try #require(
        receiver.state.withLock { $0.requests.first { $0.path == "/v1/metrics" }?.body })
      let request = try OTLP.ExportMetricsServiceRequest(decoding: body, as: .protobuf)
      let metrics = request.resourceMetrics.flatMap(\.scopeMetrics).flatMap(\.metrics)
      func metric(_ name: String) -> OTLP.Metric.Data? { metrics.first { $0.name == name }?.data }
      guard case .sum(let counter)? = metric("c"), case .sum(let float)? = metric("f"),
        case .gauge(let gauge)? = metric("g"), case .histogram(let sizes)? = metric("h")
      else {
        Issue.record("missing or mistyped metrics: \(metrics.map(\.name))")
        return
      }
      #expect(counter.isMonotonic && counter.aggregationTemporality == .cumulative)
      #expect(counter.dataPoints.last?.value == .int(5))
      #expect(counter.dataPoints.last?.attributes == [OTLP.KeyValue("k", .string("v"))])
      #expect(float.isMonotonic && float.dataPoints.last?.value == .double(1.5))
      #expect(gauge.dataPoints.last?.value == .double(-2.25))
      let point = try #require(sizes.dataPoints.last)
      #expect(sizes.aggregationTemporality == .cumulative)
      #expect(point.count == 4 && point.sum == 20_731 && point.min == 1 && point.max == 20_000)
      #expect(point.explicitBounds == MetricHistogram.defaultBounds)
      #expect(point.bucketCounts.count == point.explicitBounds.count + 1)
      #expect(point.bucketCounts.reduce(0, +) == 4)
      #expect(point.startTimeUnixNano > 0 && point.timeUnixNano >= point.startTimeUnixNano)
    }
  }

  @Test("batches whose records the quota dropped before they were sent are discarded and told")
  func retentionDropsPendingBatches() async throws {
    let disk = SimulatedFileSystem()
    var spoolOptions = Fixture.spoolOptions()
    spoolOptions.logs.byteLimit = 8 << 10
    let spool = try TelemetrySpool.open(
      at: Fixture.root, options: spoolOptions, fileSystem: disk)
    for index in 0..<10 { Fixture.log(spool, index) }
    let receiver = FakeReceiver(script: Array(repeating: .networkError, count: 3))
    let events = EventLog()
    let forwarder = try await Fixture.open(spool, receiver, disk: disk, events: events.sink)
    #expect(try await forwarder.drain().haltedBecause != nil)
    #expect(await forwarder.pending.count == 2)
    // The app goes on while the receiver is away, past the spool's quota: the oldest records,
    // those of the pending batches among them, are dropped (and counted by the spool).
    for index in 10..<1500 { Fixture.log(spool, index) }
    try spool.flush()
    #expect(spool.logs.lowWaterMark > 10)
    #expect(spool.dropCounts[.quota] > 0)
    let report = try await forwarder.drain()
    #expect(report.batchesLost == 2)
    #expect(events.named(ForwardingEvents.batchLost).count == 2)
    let delivered = try Fixture.appSequences(receiver)
    #expect(delivered.first.map { $0 >= 10 } == true && delivered.last == 1499)
    #expect(Set(delivered).count == delivered.count)
    try await forwarder.close()
    try spool.close()
  }

  @Test("the range format round-trips and refuses what it cannot read")
  func rangeFormat() throws {
    let range = SpoolRange(stream: .metrics, first: 7, last: 1 << 40)
    let bytes = SpoolRangeFormat.encode(range)
    #expect(bytes.count == SpoolRangeFormat.size)
    #expect(try SpoolRangeFormat.decode(bytes) == range)
    var newer = bytes
    newer[0] = 2
    #expect(throws: StoreError.self) { try SpoolRangeFormat.decode(newer) }
    var backwards = SpoolRangeFormat.encode(SpoolRange(stream: .logs, first: 9, last: 3))
    #expect(throws: StoreError.self) { try SpoolRangeFormat.decode(backwards) }
    backwards[1] = 9
    #expect(throws: StoreError.self) { try SpoolRangeFormat.decode(backwards) }
    #expect(throws: StoreError.self) { try SpoolRangeFormat.decode(Array(bytes.dropLast())) }
  }
}

extension UInt64 {
  var asInt: Int { Int(self) }
}
