import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// The forwarder's lifecycle: a drain joins the background loop's round, a drain forwards
/// current metric values, and a shutdown is bounded by its timeout against an endpoint that
/// never answers or refuses, without losing a record.
@Suite("Forwarder: drain with start, metrics samples, bounded shutdown")
struct ForwarderLifecycleTests {
  typealias Fixture = ForwarderFixture

  /// A receiver that takes `delay` over every request, counting those it has started.
  final class SlowTransport: Transport {
    let inner: FakeReceiver
    let delay: Duration
    let started = SleepingLock(0)

    init(_ inner: FakeReceiver, delay: Duration) {
      self.inner = inner
      self.delay = delay
    }

    func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
      started.withLock { $0 += 1 }
      try? await Task.sleep(for: delay)
      return try await inner.send(request)
    }
  }

  /// A receiver that never answers, behind a transport that does not observe its
  /// cancellation: each send ends only when its request's timeout has passed.
  final class DeafTransport: Transport {
    func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
      // Detached: the wait does not see the caller's cancellation.
      await Task.detached { try? await Task.sleep(for: request.timeout) }.value
      throw .timeout
    }
  }

  @Test("drain() while the background loop's round runs waits for it, then covers the rest")
  func drainJoinsTheLoop() async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<12 { Fixture.log(spool, index) }
    let receiver = FakeReceiver(script: [])
    let transport = SlowTransport(receiver, delay: .milliseconds(200))
    var options = Fixture.options()
    options.interval = .seconds(3600)
    let forwarder = try await Forwarder.open(
      spool: spool,
      exporter: try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: "http://127.0.0.1:4318"),
        transport: transport),
      options: options, fileSystem: disk)
    await forwarder.start()
    var waited = 0
    while transport.started.withLock({ $0 }) == 0, waited < 500 {
      try await Task.sleep(for: .milliseconds(10))
      waited += 1
    }
    // The loop's round is in flight; these records come after the batches it formed.
    for index in 12..<20 { Fixture.log(spool, index) }
    let report = try await forwarder.drain()
    #expect(report.haltedBecause == nil)
    #expect(try Fixture.appSequences(receiver) == Array(0..<20))
    #expect(report.logRecordsDelivered >= 8)
    try await forwarder.shutdown(timeout: .seconds(5))
    try spool.close()
  }

  @Test("a drain takes a metrics sample first: a counter arrives without a flush")
  func drainSamplesMetrics() async throws {
    try await Fixture.run(records: 0..<3) { spool, _, forwarder in
      spool.metrics.counter(label: "jobs.done").increment(by: 7)
      let report = try await forwarder.drain()
      #expect(report.logRecordsDelivered == 3)
      #expect(report.dataPointsDelivered >= 1)
    }
  }

  @Test("after shutdown no drain starts and a second shutdown returns at once")
  func shutdownRefusesNewRounds() async throws {
    let (disk, spool) = try Fixture.filledSpool(4)
    let receiver = FakeReceiver(script: [])
    let forwarder = try await Fixture.open(spool, receiver, disk: disk)
    // The bound is not what this test checks (the bounded tests below do): generous, so that a
    // drain delayed by a suite run in parallel under a sanitizer (its synchronous tests holding
    // the cooperative pool's threads for minutes) still delivers all 4.
    let report = try await forwarder.shutdown(timeout: .seconds(600))
    #expect(report.logRecordsDelivered == 4)
    #expect(try await forwarder.shutdown(timeout: .seconds(5)) == ForwardingReport())
    await #expect(throws: StoreError.self) { try await forwarder.drain() }
    try spool.close()
  }

  /// Shuts a forwarder sending to `endpoint` down with a one-second timeout while the loop is
  /// stuck, measures it, then drains the same spool to a receiver that answers: every record
  /// arrives (nothing was lost by the interrupted sends).
  func shutdownIsBounded(
    endpoint: String, transport: (any Transport)? = nil, bound: Duration = .seconds(20)
  ) async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<10 { Fixture.log(spool, index) }
    spool.metrics.counter(label: "jobs.done").increment(by: 3)
    // The real clock and the default retry policy: the outbox backs off between attempts.
    let options = ForwarderOptions(
      maxRecords: 5, resourceAttributes: [("service.name", "forwarder-tests")])
    let configuration = OTLPExporterConfiguration(endpoint: endpoint, timeout: .seconds(30))
    let exporter = try OTLPExporter(
      configuration: configuration, transport: transport ?? DefaultTransport())
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: exporter, options: options, fileSystem: disk)
    await forwarder.start()
    try await Task.sleep(for: .milliseconds(200))
    let clock = ContinuousClock()
    let started = clock.now
    let report = try await forwarder.shutdown(timeout: .seconds(1))
    let took = clock.now - started
    // Without the deadline the request's own timeout (30 s) would hold it. The shutdown keeps
    // part of its second for interrupting the sends and closing the outbox; the bound is
    // generous (a loaded machine, a sanitizer), far below the request's timeout.
    #expect(took < bound, "shutdown took \(took)")
    #expect(report.logRecordsDelivered == 0)
    #expect(spool.logs.lastSequence >= 10)

    let receiver = FakeReceiver(script: [])
    let next = try await Fixture.open(spool, receiver, disk: disk)
    let after = try await next.drain()
    #expect(after.haltedBecause == nil)
    #expect(try Fixture.appSequences(receiver) == Array(0..<10))
    #expect(after.dataPointsDelivered >= 1)
    try await next.close()
    try spool.close()
  }

  @Test("shutdown(timeout:) returns in time against an endpoint that accepts and never answers")
  func shutdownAgainstSilentEndpoint() async throws {
    // A listening socket nobody accepts from: the kernel completes the connections, and no
    // byte of an answer ever comes.
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    defer { PosixSocket.close(descriptor) }
    try await shutdownIsBounded(endpoint: "http://127.0.0.1:\(port)")
  }

  @Test("shutdown(timeout:) returns in time through a transport that ignores cancellation")
  func shutdownAgainstDeafTransport() async throws {
    // The request's own timeout is 30 s: a shutdown waiting for it would take that long.
    try await shutdownIsBounded(
      endpoint: "http://127.0.0.1:9", transport: DeafTransport(), bound: .seconds(15))
  }

  @Test("shutdown(timeout:) returns in time against an endpoint that refuses connections")
  func shutdownAgainstRefusingEndpoint() async throws {
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    PosixSocket.close(descriptor)
    try await shutdownIsBounded(endpoint: "http://127.0.0.1:\(port)")
  }

  @Test("drain(timeout:) says the deadline stopped it and loses nothing")
  func boundedDrain() async throws {
    let (descriptor, port) = try PosixSocket.listen(host: "127.0.0.1", port: 0)
    defer { PosixSocket.close(descriptor) }
    let (disk, spool) = try Fixture.filledSpool(6)
    let forwarder = try await Forwarder.open(
      spool: spool,
      exporter: try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: "http://127.0.0.1:\(port)")),
      options: ForwarderOptions(maxRecords: 5), fileSystem: disk)
    let clock = ContinuousClock()
    let started = clock.now
    let report = try await forwarder.drain(timeout: .milliseconds(500))
    // Far below the request's own 30 s timeout; the slack is the cancellation (see above).
    #expect(clock.now - started < .seconds(20))
    #expect(report.haltedBecause?.contains("deadline") == true)
    #expect(await forwarder.pending.count >= 1)
    try await forwarder.close()
    try spool.close()
  }
}
