import Foundation
import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// Exactly once under a crash at every point of the simulated disk: a forwarder drains a spool
/// into a deduplicating receiver (the first answer lost on the way back), and the process dies
/// at every crash point — after an outbox enqueue and before its send, after a send and before
/// its acknowledgement, after an acknowledgement and before the spool let the records go. A
/// forwarder opened on the crashed disk drains what is left. Every key the two sent must carry
/// the same body both times, and after dedupe every record the spool held arrives exactly once.
@Suite("Forwarder crash consistency")
struct ForwarderCrashTests {
  typealias Fixture = ForwarderFixture

  static let records = 10

  /// Runs `body` to completion from synchronous code (the crash explorer's closures), on a task
  /// of its own while this thread waits.
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = SleepingLock<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      do {
        let value = try await body()
        outcome.withLock { $0 = .success(value) }
      } catch {
        outcome.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    guard let result = outcome.withLock({ $0 }) else { throw CheckFailure("no outcome") }
    return try result.get()
  }

  struct CheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// What the forwarder opened after the crash found and did.
  struct Recovered: Sendable {
    /// The app records the spool held before the drain, by `seq`.
    var held: [Int]
    /// The requests it sent, key and body.
    var sent: [(String, [UInt8])]
    var pendingAfter: Int
    var lowWater: UInt64
    var last: UInt64
  }

  /// The app's `seq`s in a logs body.
  static func sequences(in body: [UInt8]) throws -> [Int] {
    let request = try OTLP.ExportLogsServiceRequest(decoding: body, as: .protobuf)
    return request.resourceLogs.flatMap(\.scopeLogs).flatMap(\.logRecords).filter {
      $0.string("log.label") == "app"
    }.compactMap { $0.string("seq").flatMap { Int($0) } }
  }

  @Test(
    "every key re-formed with the same body; every record delivered exactly once",
    arguments: [1, 3])
  func exactlyOnceAtEveryCrashPoint(inFlight: Int) async throws {
    // The explorer waits for the forwarder's tasks: on a thread of its own, never one of the
    // cooperative pool those tasks need.
    let options = Fixture.options(maxRecords: 4, inFlight: inFlight)
    let report = await BlockingExecutor().run { Self.explore(options) }
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 20)
    print("forwarder crash exploration, \(inFlight) in flight: \(report)")
  }

  static func explore(_ options: ForwarderOptions) -> CrashReport {
    // Bodies sent before the crash, by key (the operation runs once).
    let bodies = SleepingLock<[String: [UInt8]]>([:])
    var budget = CrashBudget.fromEnvironment(default: 3)
    budget.recoveryCrashPoints = false
    return CrashExplorer(budget: budget).explore(
      operation: { disk, recorder in
        let spool = try Fixture.openSpool(disk)
        // Not synced: the forwarder must make a record durable before a batch names it, or a
        // crash could take it back and a later record reuse its sequence under the same key.
        for index in 0..<Self.records { Fixture.log(spool, index) }
        let sends = SleepingLock(0)
        // Each request marks the disk (a directory, durable in the model) before it is
        // recorded, so a crash point sits between the outbox's write and the send.
        let receiver = FakeReceiver(script: [.dropResponse]) { request in
          let number = sends.withLock { count -> Int in
            count += 1
            return count
          }
          try? disk.createDirectory("/receiver-\(number)")
          if request.path == "/v1/logs" {
            bodies.withLock { $0[request.key] = $0[request.key] ?? request.body }
            recorder.acknowledge("sent:\(request.key)")
          }
        }
        try Self.blocking {
          let forwarder = try await Fixture.open(spool, receiver, disk: disk, options: options)
          try await forwarder.drain()
          try await forwarder.close()
        }
        recorder.acknowledge("logged")
        try spool.close()
      },
      recover: { disk in
        let spool = try Fixture.openSpool(disk)
        defer { try? spool.close() }
        // The app goes on after the restart: the spool's tail grows past every batch formed
        // before the crash.
        Fixture.log(spool, 100)
        let held = try spool.logs.entries().compactMap(\.record).filter { $0.label == "app" }
          .compactMap { $0.metadata["seq"].flatMap { Int($0.description) } }
        let receiver = FakeReceiver()
        let (pending, _) = try Self.blocking {
          let forwarder = try await Fixture.open(spool, receiver, disk: disk, options: options)
          try await forwarder.drain()
          let pending = await forwarder.pending.count
          try await forwarder.close()
          return (pending, 0)
        }
        let sent = receiver.state.withLock { $0.requests }.filter { $0.path == "/v1/logs" }.map {
          ($0.key, $0.body)
        }
        return Recovered(
          held: held, sent: sent, pendingAfter: pending, lowWater: spool.logs.lowWaterMark,
          last: spool.logs.lastSequence)
      },
      check: { recovered, context in
        let before = bodies.withLock { $0 }
        var stored: [String: [UInt8]] = [:]
        var order: [String] = []
        for acknowledgement in context.acknowledged where acknowledgement.hasPrefix("sent:") {
          let key = String(acknowledgement.dropFirst("sent:".count))
          guard stored[key] == nil, let body = before[key] else { continue }
          stored[key] = body
          order.append(key)
        }
        for (key, body) in recovered.sent {
          if let earlier = stored[key] {
            try context.require(earlier == body, "key \(key) was sent again with another body")
          } else {
            stored[key] = body
            order.append(key)
          }
        }
        var delivered: [Int] = []
        for key in order { delivered += try Self.sequences(in: stored[key] ?? []) }
        try context.require(
          Set(delivered).count == delivered.count, "a record arrived twice: \(delivered)")
        for seq in recovered.held {
          try context.require(delivered.contains(seq), "record \(seq) never arrived: \(delivered)")
        }
        if context.acknowledged.contains("logged") {
          try context.require(
            Set(delivered) == Set(0..<Self.records).union([100]),
            "delivered \(delivered.sorted())")
        }
        try context.require(recovered.pendingAfter == 0, "batches left pending")
        try context.require(
          recovered.lowWater == recovered.last,
          "the spool still holds \(recovered.lowWater)…\(recovered.last)")
      })
  }
}
