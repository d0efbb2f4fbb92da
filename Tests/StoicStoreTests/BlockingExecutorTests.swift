import Dispatch
import Foundation
import StoicStore
import StoicTesting
import Synchronization
import Testing

/// A door that stays shut until opened, then lets every waiter through at once.
final class Gate: Sendable {
  private let group = DispatchGroup()
  private let opened = Atomic<Bool>(false)
  init() { group.enter() }
  /// A group that is released while entered is a libdispatch crash: leave it first.
  deinit { open() }
  /// Blocks the calling thread until the gate is open.
  func wait() { group.wait() }
  /// Opens the gate (once; later calls do nothing).
  func open() {
    if !opened.exchange(true, ordering: .acquiringAndReleasing) { group.leave() }
  }
  var isOpen: Bool { opened.load(ordering: .acquiring) }
}

/// A counter several threads share.
final class SharedCounter: Sendable {
  private let storage = Atomic<Int>(0)
  /// Adds `amount`; returns the new value.
  @discardableResult func add(_ amount: Int = 1) -> Int {
    storage.add(amount, ordering: .relaxed).newValue
  }
  var value: Int { storage.load(ordering: .relaxed) }
}

/// An actor on a `BlockingExecutor`, to check where its methods run.
actor ThreadReporter {
  let executor = BlockingExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  var order: [Int] = []
  func runsOnItsExecutor() -> Bool { executor.isCurrent }
  func note(_ value: Int) { order.append(value) }
}

@Suite("BlockingExecutor: blocking work on a thread of its own")
struct BlockingExecutorTests {
  @Test("run returns the body's value, from the executor's thread, never the caller's")
  func runReturns() async {
    let executor = BlockingExecutor()
    #expect(!executor.isCurrent)
    let onExecutor = await executor.run { executor.isCurrent }
    #expect(onExecutor)
    #expect(await executor.run { 6 * 7 } == 42)
  }

  @Test("run rethrows the body's typed error")
  func runThrows() async {
    let executor = BlockingExecutor()
    await #expect(throws: StoreError.self) {
      try await executor.run { () throws(StoreError) -> Int in
        throw StoreError(.corrupt, "planted")
      }
    }
  }

  @Test("jobs run one at a time, however many tasks give them")
  func oneAtATime() async {
    let executor = BlockingExecutor()
    let inside = SharedCounter()
    let overlaps = SharedCounter()
    let ran = SharedCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask {
          await executor.run {
            if inside.add() > 1 { overlaps.add() }
            ran.add()
            inside.add(-1)
          }
        }
      }
    }
    #expect(ran.value == 200)
    #expect(overlaps.value == 0)
  }

  @Test("an actor that names it as its executor runs every method there, in order")
  func actorOnExecutor() async {
    let actor = ThreadReporter()
    #expect(await actor.runsOnItsExecutor())
    for value in 0..<20 { await actor.note(value) }
    #expect(await actor.order == Array(0..<20))
  }

  @Test("with more outboxes waiting for a sync than the pool has threads, other tasks still run")
  func outboxesLeaveThePoolFree() async throws {
    // Every outbox's sync blocks on the gate. Were the outboxes' methods on the cooperative pool,
    // its threads (one per processor) would all be held and nothing else could run: the probe
    // below would wait for the watchdog, which opens the gate after 60 s and fails the test.
    let width = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
    let gate = Gate()
    let gating = Gate()
    let arrived = SharedCounter()
    var outboxes: [Outbox<String>] = []
    for index in 0..<width {
      let door = JournalSyncCountingFileSystem(SimulatedFileSystem()) {
        guard gating.isOpen else { return }
        arrived.add()
        gate.wait()
      }
      outboxes.append(
        try await Outbox.open(directory: "/outbox-\(index)", fileSystem: door, codec: .utf8))
    }

    gating.open()
    let timedOut = Gate()
    // A watchdog on a thread of its own (the pool may be starved) frees the pool after a
    // minute; told to stop as soon as the probe has run, it ends and releases what it holds.
    let stopWatchdog = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      guard stopWatchdog.wait(timeout: .now() + 60) == .timedOut else { return }
      timedOut.open()
      gate.open()
    }
    let enqueues = outboxes.enumerated().map { index, outbox in
      Task { try await outbox.enqueue("entry \(index)", key: "key-\(index)") }
    }
    while arrived.value < width && !timedOut.isOpen {
      try await Task.sleep(for: .milliseconds(2))
    }
    let probe = await Task.detached { (1...1000).reduce(0, +) }.value
    let everyOutboxBlocked = arrived.value == width && !gate.isOpen
    gate.open()
    stopWatchdog.signal()
    for enqueue in enqueues { #expect(try await enqueue.value) }

    #expect(!timedOut.isOpen, "the pool was starved until the watchdog")
    #expect(everyOutboxBlocked, "\(arrived.value) of \(width) reached the sync")
    #expect(probe == 500_500)
    for outbox in outboxes { #expect(await outbox.pending.count == 1) }
  }
}
