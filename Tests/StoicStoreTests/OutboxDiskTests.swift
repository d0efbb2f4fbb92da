import StoicTesting
import Testing

@testable import StoicStore

@Suite struct OutboxDiskTests {
  /// The article's check run on the simulated disk, with a real crash in the middle of the
  /// first send: one id offered twice, then 200, 422, 503, 200 → one delivered, one parked,
  /// two still queued, the drain halted on the 503.
  @Test func theArticlesCheckRunAcrossACrash() async throws {
    let disk = SimulatedFileSystem()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    for key in ["01A", "01B", "01C", "01D"] { try await outbox.enqueue("capture \(key)", key: key) }
    #expect(try await !outbox.enqueue("capture 01A", key: "01A"))
    let crashed = SleepingLock<SimulatedFileSystem?>(nil)
    _ = try await outbox.deliverPending { _ in
      // Power is lost while the first send is in flight.
      crashed.withLock { $0 = disk.crashedDurableOnly() }
      throw CancellationError()
    }
    let afterCrash = try #require(crashed.withLock { $0 })

    let events = EventRecorder()
    let recovered = try Outbox<String>(
      directory: "/outbox", fileSystem: afterCrash, codec: .utf8, options: outboxTestOptions(),
      events: events.sink)
    #expect(await recovered.pending.map(\.key) == ["01A", "01B", "01C", "01D"])
    #expect(await recovered.pending.map(\.state) == [.queued, .queued, .queued, .queued])
    let receiver = OutboxScriptedReceiver([
      .http(status: 200), .http(status: 422), .http(status: 503), .http(status: 200),
    ])
    let report = try await recovered.deliverPending { receiver.answer($0) }
    #expect(report.delivered == 1)
    #expect(report.parked == 1)
    #expect(report.haltedBecause == "HTTP 503")
    #expect(await recovered.parked.map(\.key) == ["01B"])
    #expect(await recovered.pending.map(\.key) == ["01C", "01D"])
    #expect(await recovered.pending.map(\.state) == [.queued, .queued])
    #expect(events.named(StoreEvents.outboxDelivered.name).count == 1)
    #expect(events.named(StoreEvents.outboxParked.name).count == 1)
    #expect(events.named(StoreEvents.outboxDeliveryFailed.name).count == 2)
  }

  @Test func aFailedAcknowledgementIsThrownAndTheEntryIsDeliveredAgainLater() async throws {
    let disk = SimulatedFileSystem()
    // Positional writes, so that the acknowledgement's own write can meet the full disk (a
    // mapped journal reserved the space for it already).
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions(),
      journalOptions: JournalOptions(mappedAppends: false))
    try await outbox.enqueue("a", key: "A")
    let sends = SleepingLock(0)
    let error = await #expect(throws: StoreError.self) {
      _ = try await outbox.deliverPending { _ in
        sends.withLock { $0 += 1 }
        disk.inject(.noSpaceOnWrite(nth: 1))
        return .http(status: 200)
      }
    }
    #expect(error?.code == .diskFull)
    #expect(await outbox.pending.map(\.key) == ["A"])
    #expect(await outbox.pending.map(\.state) == [.queued])
    disk.clearFaults()
    let report = try await outbox.deliverPending { _ in
      sends.withLock { $0 += 1 }
      return .http(status: 200)
    }
    #expect(report.delivered == 1)
    #expect(sends.withLock { $0 } == 2)
  }

  @Test func aFailedEnqueueIsThrownAndNothingIsAdded() async throws {
    let disk = SimulatedFileSystem()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    // No space to map the journal's segment, and none for the positional write after it.
    disk.inject(.noSpaceOnMap(nth: 1))
    disk.inject(.noSpaceOnWrite(nth: 1))
    await #expect(throws: StoreError.self) { try await outbox.enqueue("a", key: "A") }
    #expect(await outbox.pending.isEmpty)
    disk.clearFaults()
    #expect(try await outbox.enqueue("a", key: "A"))
    #expect(await outbox.pending.map(\.key) == ["A"])
  }

  @Test func keysMustBeNonEmptyAndBounded() async throws {
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: SimulatedFileSystem(), codec: .utf8,
      options: outboxTestOptions())
    await #expect(throws: StoreError.self) { try await outbox.enqueue("a", key: "") }
    let long = String(repeating: "k", count: 1025)
    await #expect(throws: StoreError.self) { try await outbox.enqueue("a", key: long) }
  }

  @Test func automaticCompactionKeepsEverything() async throws {
    let disk = SimulatedFileSystem()
    let outbox = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8,
      options: outboxTestOptions(compactAfter: 4))
    for index in 0..<10 { try await outbox.enqueue("item \(index)", key: "K\(index)") }
    _ = try await outbox.deliverPending { batch in
      batch.key == "K3" ? .http(status: 404) : batch.key == "K6" ? .timeout : .http(status: 200)
    }
    try await outbox.close()
    let journal = try Journal.open(directory: "/outbox", fileSystem: disk)
    #expect(try journal.snapshot() != nil)
    try journal.close()
    let reopened = try Outbox<String>(
      directory: "/outbox", fileSystem: disk, codec: .utf8, options: outboxTestOptions())
    #expect(await reopened.parked.map(\.key) == ["K3"])
    #expect(await reopened.pending.map(\.key) == ["K6", "K7", "K8", "K9"])
    #expect(try await !reopened.enqueue("again", key: "K0"))
  }
}
