import StoicTesting
import Testing

@testable import StoicStore

@Suite struct OutboxClassificationTests {
  static let now: Int64 = 784_111_777_000  // Sun, 06 Nov 1994 08:49:37 GMT

  static let table: [(Int, String)] = [
    (200, "delivered"), (201, "delivered"), (204, "delivered"), (299, "delivered"),
    (400, "permanent"), (401, "transient"), (403, "transient"), (404, "permanent"),
    (405, "permanent"), (408, "transient"), (409, "permanent"), (413, "permanent"),
    (422, "permanent"), (425, "transient"), (429, "transient"), (499, "permanent"),
    (500, "transient"), (502, "transient"), (503, "transient"), (504, "transient"),
    (599, "transient"),
  ]

  static func kind(_ classification: DeliveryClassification) -> String {
    switch classification {
    case .delivered: "delivered"
    case .transient: "transient"
    case .permanent: "permanent"
    case .halt: "halt"
    }
  }

  @Test(arguments: table)
  func statusTable(status: Int, expected: String) {
    let decision = FailureClassifier.standardClassification(
      of: .http(status: status), nowMilliseconds: Self.now)
    #expect(Self.kind(decision) == expected, "HTTP \(status)")
  }

  @Test func networkErrorsAndTimeoutsAreTransient() {
    let network = FailureClassifier.standard.classify(
      .networkError("connection refused"), nowMilliseconds: Self.now)
    #expect(Self.kind(network) == "transient")
    #expect(
      Self.kind(FailureClassifier.standard.classify(.timeout, nowMilliseconds: Self.now))
        == "transient")
  }

  @Test func partialSuccessIsDeliveredWithItsRejectedCount() {
    let decision = FailureClassifier.standard.classify(
      .partialSuccess(rejected: 3, message: "bad attribute"), nowMilliseconds: Self.now)
    #expect(decision == .delivered(rejected: 3))
  }

  @Test func retryAfterIsCarriedOnTransientAnswers() {
    let seconds = FailureClassifier.standard.classify(
      .http(status: 429, retryAfter: "7"), nowMilliseconds: Self.now)
    #expect(seconds == .transient(reason: "HTTP 429", retryAfter: .seconds(7)))
    let date = FailureClassifier.standard.classify(
      .http(status: 503, retryAfter: "Sun, 06 Nov 1994 08:50:07 GMT"), nowMilliseconds: Self.now)
    #expect(date == .transient(reason: "HTTP 503", retryAfter: .seconds(30)))
  }

  @Test func theAppCanOverrideTheTable() {
    let classifier = FailureClassifier.overriding { response in
      if case .http(405, _) = response { return .transient(reason: "restart", retryAfter: nil) }
      return nil
    }
    #expect(Self.kind(classifier.classify(.http(status: 405), nowMilliseconds: 0)) == "transient")
    #expect(Self.kind(classifier.classify(.http(status: 404), nowMilliseconds: 0)) == "permanent")
    #expect(Self.kind(classifier.classify(.http(status: 200), nowMilliseconds: 0)) == "delivered")
  }
}

@Suite struct RetryAfterTests {
  let now = OutboxClassificationTests.now

  @Test func delaySeconds() {
    #expect(RetryAfter.parse("120", nowMilliseconds: now) == .seconds(120))
    #expect(RetryAfter.parse("  0 ", nowMilliseconds: now) == .seconds(0))
    #expect(RetryAfter.parse("99999999999999999999", nowMilliseconds: now) == .seconds(86_400))
  }

  @Test func imfFixdate() {
    #expect(
      RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", nowMilliseconds: now) == .seconds(0))
    #expect(
      RetryAfter.parse("Sun, 06 Nov 1994 09:49:37 GMT", nowMilliseconds: now) == .seconds(3600))
    #expect(
      RetryAfter.parse("Mon, 07 Nov 1994 08:49:37 GMT", nowMilliseconds: now) == .seconds(86_400))
    // A date in the past is no wait at all.
    #expect(
      RetryAfter.parse("Sat, 05 Nov 1994 08:49:37 GMT", nowMilliseconds: now) == .seconds(0))
  }

  @Test func knownEpochs() {
    #expect(HTTPDate.parseIMFFixdate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
    #expect(HTTPDate.parseIMFFixdate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    #expect(HTTPDate.parseIMFFixdate("Tue, 29 Feb 2000 12:00:00 GMT") == 951_825_600)
    #expect(HTTPDate.parseIMFFixdate("Sat, 01 Jan 2050 00:00:00 GMT") == 2_524_608_000)
  }

  @Test(arguments: [
    "", "soon", "-5", "1.5", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-94 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49 GMT", "Fri, 29 Feb 2001 00:00:00 GMT",
  ])
  func rejects(_ value: String) {
    #expect(RetryAfter.parse(value, nowMilliseconds: now) == nil, "\(value)")
  }
}

@Suite struct RetryPolicyTests {
  @Test func ceilingDoublesUpToTheCap() {
    let policy = RetryPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1))
    #expect(policy.ceiling(beforeRetry: 1) == .milliseconds(100))
    #expect(policy.ceiling(beforeRetry: 2) == .milliseconds(200))
    #expect(policy.ceiling(beforeRetry: 4) == .milliseconds(800))
    #expect(policy.ceiling(beforeRetry: 5) == .seconds(1))
    #expect(policy.ceiling(beforeRetry: 500) == .seconds(1))
  }

  @Test func fullJitterSpansZeroToTheCeiling() {
    let policy = RetryPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1))
    #expect(policy.delay(beforeRetry: 3, random: 0) == .zero)
    #expect(policy.delay(beforeRetry: 3, random: .max) == .milliseconds(400))
    #expect(policy.delay(beforeRetry: 3, random: .max / 2) == .nanoseconds(200_000_000))
    let random = OutboxSeededRandom()
    for retry in 1...20 {
      let wait = policy.delay(beforeRetry: retry, random: random.next())
      #expect(wait >= .zero && wait <= policy.ceiling(beforeRetry: retry))
    }
  }

  @Test func drainRetriesWithBackoffOnTheControlledClock() async throws {
    let clock = OutboxManualClock()
    let policy = RetryPolicy(
      initialDelay: .seconds(1), maxDelay: .seconds(4), maxAttempts: 4, drainBudget: 10)
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(clock: clock, random: OutboxSeededRandom(seed: 7), policy: policy),
      events: .discard)
    try await outbox.enqueue("a", key: "A")
    let receiver = OutboxScriptedReceiver([
      .http(status: 503), .timeout, .http(status: 429, retryAfter: "9"), .http(status: 200),
    ])
    let report = try await outbox.deliverPending { receiver.answer($0) }
    #expect(report.delivered == 1)
    #expect(report.attempts == 4)
    // Two jittered waits bounded by 1 s and 2 s, then the 9 s the receiver asked for.
    let expected = OutboxSeededRandom(seed: 7)
    #expect(
      clock.sleeps == [
        policy.delay(beforeRetry: 1, random: expected.next()),
        policy.delay(beforeRetry: 2, random: expected.next()),
        .seconds(9),
      ])
    #expect(await outbox.pending.isEmpty)
  }

  @Test func budgetAndAttemptsEndTheDrain() async throws {
    let clock = OutboxManualClock()
    let policy = RetryPolicy(
      initialDelay: .seconds(1), maxDelay: .seconds(4), maxAttempts: 3, drainBudget: 2)
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(clock: clock, policy: policy), events: .discard)
    try await outbox.enqueue("a", key: "A")
    try await outbox.enqueue("b", key: "B")
    let receiver = OutboxScriptedReceiver([], otherwise: .http(status: 503))
    let report = try await outbox.deliverPending { receiver.answer($0) }
    #expect(report.attempts == 3)
    #expect(clock.sleeps.count == 2)
    #expect(report.haltedBecause == "HTTP 503")
    #expect(receiver.sent.map(\.key) == ["A", "A", "A"])
    #expect(await outbox.pending.map(\.state) == [.queued, .queued])
  }

  @Test func aLongRetryAfterEndsTheDrainAndIsHonouredByTheNext() async throws {
    let clock = OutboxManualClock()
    let policy = RetryPolicy(longestHold: .seconds(7200))
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(clock: clock, policy: policy), events: .discard)
    try await outbox.enqueue("a", key: "A")
    let receiver = OutboxScriptedReceiver([.http(status: 503, retryAfter: "3600")])
    let first = try await outbox.deliverPending { receiver.answer($0) }
    #expect(first.haltedBecause == "HTTP 503")
    #expect(first.retryNotBefore == clock.now + 3_600_000)
    #expect(clock.sleeps.isEmpty)
    let early = try await outbox.deliverPending { receiver.answer($0) }
    #expect(early.attempts == 0)
    #expect(receiver.sent.count == 1)
    clock.advance(milliseconds: 3_600_000)
    let later = try await outbox.deliverPending { receiver.answer($0) }
    #expect(later.delivered == 1)
  }

  /// A receiver asking for a day (or for a date in 9999) holds the sends back only for the
  /// policy's longest hold, 5 minutes by default: then it is asked again.
  @Test(arguments: ["999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
  func aRetryAfterLongerThanTheLongestHoldIsCutToIt(_ header: String) async throws {
    let clock = OutboxManualClock()
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(clock: clock, policy: .standard), events: .discard)
    try await outbox.enqueue("a", key: "A")
    let receiver = OutboxScriptedReceiver([.http(status: 429, retryAfter: header)])
    let first = try await outbox.deliverPending { receiver.answer($0) }
    #expect(first.haltedBecause == "HTTP 429")
    #expect(RetryPolicy.standard.longestHold == .seconds(300))
    #expect(first.retryNotBefore == clock.now + 300_000)
    clock.advance(milliseconds: 299_999)
    let early = try await outbox.deliverPending { receiver.answer($0) }
    #expect(early.attempts == 0)
    clock.advance(milliseconds: 1)
    let later = try await outbox.deliverPending { receiver.answer($0) }
    #expect(later.delivered == 1)
    #expect(receiver.sent.count == 2)
  }

  /// With lanes, a long `Retry-After` holds only the lane it answered: the other lane goes on in
  /// the same drain and the next ones, the held lane waits out the time asked for.
  @Test func aLongRetryAfterHoldsOnlyItsLane() async throws {
    let clock = OutboxManualClock()
    let policy = RetryPolicy(longestHold: .seconds(7200))
    let outbox = try Outbox<String>(
      log: MemoryOutboxLog(), codec: .utf8, fileSystem: SimulatedFileSystem(),
      options: outboxTestOptions(clock: clock, policy: policy), events: .discard)
    for (key, item) in [("L1", "logs"), ("M1", "metrics"), ("L2", "logs"), ("M2", "metrics")] {
      try await outbox.enqueue(item, key: key)
    }
    let lane: @Sendable (String) -> String = { $0 }
    let receiver = OutboxScriptedReceiver([.http(status: 429, retryAfter: "600")])
    let first = try await outbox.deliverPending(lane: lane) { receiver.answer($0) }
    #expect(first.haltedBecause == nil)
    #expect(first.delivered == 2)
    #expect(first.heldLanes == ["logs"])
    #expect(first.retryNotBefore == clock.now + 600_000)
    #expect(receiver.sent.map(\.key) == ["L1", "M1", "M2"])
    #expect(await outbox.pending.map(\.key) == ["L1", "L2"])
    // More metrics go at once; the logs wait.
    try await outbox.enqueue("metrics", key: "M3")
    let during = try await outbox.deliverPending(lane: lane) { receiver.answer($0) }
    #expect(during.delivered == 1)
    #expect(receiver.sent.map(\.key).last == "M3")
    #expect(await outbox.pending.map(\.key) == ["L1", "L2"])
    clock.advance(milliseconds: 600_000)
    let after = try await outbox.deliverPending(lane: lane) { receiver.answer($0) }
    #expect(after.delivered == 2)
    #expect(after.heldLanes.isEmpty)
    #expect(await outbox.pending.isEmpty)
    // Without lanes the same answer holds everything, as before.
    try await outbox.enqueue("logs", key: "L3")
    try await outbox.enqueue("metrics", key: "M4")
    let whole = OutboxScriptedReceiver([.http(status: 429, retryAfter: "600")])
    let held = try await outbox.deliverPending { whole.answer($0) }
    #expect(held.haltedBecause == "HTTP 429")
    #expect(whole.sent.map(\.key) == ["L3"])
  }
}
