import StoicForwarding
import StoicStore
import StoicTesting
import Testing

/// OTLP/HTTP's retry rules as the forwarder applies them: one test per row of the table in
/// `FailureClassifier.otlp` (and the StoicForwarding catalog), then the rows that change what
/// the forwarder does, end to end.
@Suite("OTLP retry rules")
struct OTLPRetryRulesTests {
  typealias Fixture = ForwarderFixture
  static let now: Int64 = 1_700_000_000_000

  static func kind(_ classification: DeliveryClassification) -> String {
    switch classification {
    case .delivered(let rejected): rejected == 0 ? "delivered" : "delivered, \(rejected) rejected"
    case .transient(_, let retryAfter): retryAfter.map { "transient after \($0)" } ?? "transient"
    case .permanent: "permanent"
    case .halt: "halt"
    }
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var response: DeliveryResponse
    var expected: String
    var testDescription: String { "\(response) → \(expected)" }
  }

  @Test(
    "each row of the mapping table",
    arguments: [
      // 2xx: success; a partial success is delivered and not retried.
      Row(response: .http(status: 200), expected: "delivered"),
      Row(response: .http(status: 202), expected: "delivered"),
      Row(
        response: .partialSuccess(rejected: 3, message: "bad"), expected: "delivered, 3 rejected"),
      // Retryable: 429, 502, 503, 504, honouring Retry-After in seconds or as an HTTP date.
      Row(response: .http(status: 429), expected: "transient"),
      Row(response: .http(status: 429, retryAfter: "7"), expected: "transient after 7.0 seconds"),
      Row(response: .http(status: 502), expected: "transient"),
      Row(
        response: .http(status: 503, retryAfter: "Tue, 14 Nov 2023 22:13:30 GMT"),
        expected: "transient after 10.0 seconds"),
      Row(response: .http(status: 504, retryAfter: "2"), expected: "transient after 2.0 seconds"),
      // No answer: retried with backoff.
      Row(response: .networkError("connection reset"), expected: "transient"),
      Row(response: .timeout, expected: "transient"),
      // Deliberate differences: 401/403 halt (kept in line), 408 retried.
      Row(response: .http(status: 401), expected: "halt"),
      Row(response: .http(status: 403), expected: "halt"),
      Row(response: .http(status: 408), expected: "transient"),
      // Everything else the specification says not to retry: parked.
      Row(response: .http(status: 400), expected: "permanent"),
      Row(response: .http(status: 404), expected: "permanent"),
      Row(response: .http(status: 413), expected: "permanent"),
      Row(response: .http(status: 425, retryAfter: "1"), expected: "permanent"),
      Row(response: .http(status: 500), expected: "permanent"),
      Row(response: .http(status: 501), expected: "permanent"),
      Row(response: .http(status: 505), expected: "permanent"),
      Row(response: .http(status: 302), expected: "permanent"),
    ])
  func row(_ row: Row) {
    // 1_700_000_000_000 ms is Tue, 14 Nov 2023 22:13:20 GMT.
    let decision = FailureClassifier.otlp.classify(row.response, nowMilliseconds: Self.now)
    #expect(Self.kind(decision) == row.expected)
  }

  @Test("the forwarder's options use the OTLP rules by default")
  func defaultClassifier() {
    let decision = ForwarderOptions().classifier.classify(
      .http(status: 500), nowMilliseconds: Self.now)
    #expect(Self.kind(decision) == "permanent")
  }

  @Test("a 500 parks its batch (kept, counted, requeueable), never drops it")
  func serverErrorParks() async throws {
    try await Fixture.run(records: 0..<3, script: [.status(500)]) { spool, receiver, forwarder in
      let report = try await forwarder.drain()
      #expect(report.batchesParked == 1)
      #expect(await forwarder.parked.first?.lastError == "HTTP 500")
      #expect(receiver.state.withLock { $0.requests.count } == 1)
      try await forwarder.outbox.requeue(try #require(await forwarder.parked.first).key)
      try await forwarder.drain()
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2])
    }
  }

  @Test("a 502 is retried and delivered")
  func badGatewayRetried() async throws {
    try await Fixture.run(records: 0..<3, script: [.status(502), .status(504)]) {
      spool, receiver, forwarder in
      let report = try await forwarder.drain()
      #expect(report.batchesParked == 0 && report.attempts == 3)
      #expect(try Fixture.appSequences(receiver) == [0, 1, 2])
    }
  }

  @Test(
    "401/403: kept in line, the drain stops at once, the reason stored durably, forwarding.unauthorized raised",
    arguments: [401, 403])
  func unauthorized(status: Int) async throws {
    let disk = SimulatedFileSystem()
    let spool = try Fixture.openSpool(disk)
    for index in 0..<12 { Fixture.log(spool, index) }
    let secret = "t0ken-never-printed"
    let receiver = FakeReceiver(script: [.status(status), .status(status)])
    var configuration = try #require(
      try OTelEnvironment([
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20\(secret)",
      ]
      ).exporter)
    configuration.compression = .none
    let events = EventLog()
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: OTLPExporter(configuration: configuration, transport: receiver),
      options: Fixture.options(), fileSystem: disk, events: events.sink)
    let report = try await forwarder.drain()
    #expect(report.haltedBecause?.contains("\(status)") == true)
    #expect(report.batchesParked == 0)
    #expect(receiver.state.withLock { $0.requests.count } == 1, "no retry within the drain")
    #expect(await forwarder.parked.isEmpty)
    let unauthorized = events.named(ForwardingEvents.unauthorized)
    #expect(unauthorized.count == 1)
    #expect(unauthorized.first?["status"] == String(status))
    #expect(unauthorized.first?.definition.level == .error)
    #expect(!events.events.withLock { $0 }.contains { "\($0)".contains(secret) })
    try await forwarder.close()
    // The reason outlives the process: a new forwarder on the same disk reads it back.
    let reopened = try await Fixture.open(spool, receiver, disk: disk)
    let pending = await reopened.outbox.pending
    #expect(pending.count >= 1)
    #expect(pending.first?.lastError == "HTTP \(status): the receiver refused the credentials")
    #expect(pending.dropFirst().allSatisfy { $0.lastError == nil })
    // Fixed credentials (the script runs out: 200): everything is delivered once.
    _ = try await reopened.drain()
    _ = try await reopened.drain()
    #expect(try Fixture.appSequences(receiver) == Array(0..<12))
    try await reopened.close()
    try spool.close()
  }
}
