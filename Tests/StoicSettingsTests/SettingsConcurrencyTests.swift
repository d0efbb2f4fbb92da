import Observation
import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// Records every value Observation reports, re-registering after each change.
///
/// `withObservationTracking` calls `onChange` before the mutation lands (on the updating
/// thread, under the update lock), so the value the probe reads when it re-registers is the
/// one committed just before that change: over a run it sees every committed value but the
/// last, in order.
final class ObservationProbe: Sendable {
  let store: SettingsStore<Counter>
  let seen = SleepingLock<[Int]>([])

  init(_ store: SettingsStore<Counter>) {
    self.store = store
    _ = track()
  }

  /// Registers for the next change; returns the value read while registering.
  func track() -> Int {
    withObservationTracking {
      store.value.count
    } onChange: { [weak self] in
      // Weak: the store keeps this closure until its next change, and the probe keeps the
      // store, so a strong capture would keep both alive after the test.
      guard let self else { return }
      let value = track()
      seen.withLock { $0.append(value) }
    }
  }
}

@Suite struct SettingsConcurrencyTests {
  static let tasks = 8
  static let updatesPerTask = 25

  @Test func concurrentUpdatesLoseNothingAndObserversSeeEveryValueInOrder() async throws {
    let disk = SimulatedFileSystem()
    let store = try SettingsStore.open(at: settingsPath, schema: Counter.schema, fileSystem: disk)
    let total = Self.tasks * Self.updatesPerTask
    let probe = ObservationProbe(store)

    let stream = store.changes()

    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<Self.tasks {
        group.addTask {
          for _ in 0..<Self.updatesPerTask {
            try store.update { $0.count += 1 }
          }
        }
      }
      try await group.waitForAll()
    }

    #expect(store.value.count == total)
    let reopened = try SettingsStore.open(
      at: settingsPath, schema: Counter.schema, fileSystem: disk.crashedDurableOnly())
    #expect(reopened.value.count == total)

    // changes(): every committed value exactly once, in commit order. The stream buffers, so
    // reading it now, up to the last committed value, sees everything (and cannot hang).
    let last = store.value.count
    var values: [Int] = []
    for await value in stream {
      values.append(value.count)
      if value.count == last { break }
    }
    #expect(values == Array(0...total))

    // Observation: a strictly increasing sequence of committed values, ending at the last.
    let observed = probe.seen.withLock { $0 } + [store.value.count]
    #expect(observed == Array(0...total))
  }

  @Test func refusedAndFailedUpdatesAreNotPublished() async throws {
    let disk = SimulatedFileSystem()
    let store = try SettingsStore.open(at: settingsPath, schema: Counter.schema, fileSystem: disk)
    let stream = store.changes()
    try store.update { $0.count = 1 }
    #expect(throws: StoreError.self) { try store.update { $0.count = -1 } }
    disk.inject(.noSpaceOnWrite(nth: 1))
    #expect(throws: StoreError.self) { try store.update { $0.count = 5 } }
    disk.clearFaults()
    try store.update { $0.count = 2 }

    var values: [Int] = []
    for await value in stream {
      values.append(value.count)
      if value.count == 2 { break }
    }
    #expect(values == [0, 1, 2])
  }
}
