import StoicTesting

@testable import StoicStore

/// An in-memory stand-in for the journal, for tests that are not about the disk.
final class MemoryOutboxLog: OutboxLog, @unchecked Sendable {
  var snapshot: [UInt8]?
  var records: [[UInt8]] = []
  var failAppends = false

  init() {}

  func load() throws(StoreError) -> (snapshot: [UInt8]?, records: [[UInt8]]) {
    (snapshot, records)
  }

  func append(_ record: [UInt8]) throws(StoreError) {
    if failAppends { throw StoreError(.io, "injected append failure") }
    records.append(record)
  }

  func compact(snapshot: [UInt8]) throws(StoreError) {
    self.snapshot = snapshot
    records = []
  }

  func close() throws(StoreError) {}
}

/// A wall clock that only moves when told to, or when the outbox sleeps on it.
final class OutboxManualClock: Sendable {
  private let state: SleepingLock<(now: Int64, sleeps: [Duration])>

  init(now: Int64 = 1_700_000_000_000) {
    state = SleepingLock((now, []))
  }

  var now: Int64 { state.withLock { $0.now } }
  var sleeps: [Duration] { state.withLock { $0.sleeps } }

  func advance(milliseconds: Int64) {
    state.withLock { $0.now += milliseconds }
  }

  func sleep(_ duration: Duration) {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    state.withLock {
      $0.sleeps.append(duration)
      $0.now += milliseconds
    }
  }

  var outboxClock: OutboxClock {
    OutboxClock(now: { self.now }, sleep: { self.sleep($0) })
  }
}

/// SplitMix64 behind a lock: reproducible randomness.
final class OutboxSeededRandom: Sendable {
  private let state: SleepingLock<UInt64>

  init(seed: UInt64 = 0x5701C) { state = SleepingLock(seed) }

  func next() -> UInt64 {
    state.withLock { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  var outboxRandom: OutboxRandom { OutboxRandom { self.next() } }
}

extension EventRecorder {
  /// The events named `name`, in order.
  func named(_ name: String) -> [StoreEvent] { all.filter { $0.name == name } }
}

/// Answers sends from a script, recording what was sent.
final class OutboxScriptedReceiver: Sendable {
  private let state:
    SleepingLock<(script: [DeliveryResponse], sent: [(key: String, entries: [String])])>
  private let fallback: DeliveryResponse

  init(_ script: [DeliveryResponse], otherwise fallback: DeliveryResponse = .http(status: 200)) {
    state = SleepingLock((script, []))
    self.fallback = fallback
  }

  var sent: [(key: String, entries: [String])] { state.withLock { $0.sent } }

  func answer<Item>(_ batch: OutboxBatch<Item>) -> DeliveryResponse {
    state.withLock {
      $0.sent.append((batch.key, batch.entries.map(\.key)))
      return $0.script.isEmpty ? fallback : $0.script.removeFirst()
    }
  }
}

/// Options with a manual clock and seeded randomness.
func outboxTestOptions(
  clock: OutboxManualClock = OutboxManualClock(), random: OutboxSeededRandom = OutboxSeededRandom(),
  policy: RetryPolicy = .noRetry, compactAfter: Int? = nil
) -> OutboxOptions {
  var options = OutboxOptions()
  options.clock = clock.outboxClock
  options.random = random.outboxRandom
  options.retryPolicy = policy
  options.compactAfterRecords = compactAfter
  return options
}

/// A simulated disk whose removals under `/media/` can be made to fail.
final class OutboxRemoveFailingFileSystem: FileSystem, Sendable {
  let base: SimulatedFileSystem
  private let failing = SleepingLock(false)

  init(_ base: SimulatedFileSystem) { self.base = base }

  var failRemovals: Bool {
    get { failing.withLock { $0 } }
    set { failing.withLock { $0 = newValue } }
  }

  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoreFileHandle
  { try base.open(path, mode, permissions: permissions) }
  func close(_ handle: StoreFileHandle) throws(StoreError) { try base.close(handle) }
  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  )
    throws(StoreError) -> Int
  { try base.read(handle, into: buffer, at: offset) }
  func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  { try base.write(handle, bytes, at: offset) }
  func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    try base.map(handle, length: length)
  }
  func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) {
    try base.truncate(handle, to: size)
  }
  func sync(_ handle: StoreFileHandle) throws(StoreError) { try base.sync(handle) }
  func syncDirectory(_ path: String) throws(StoreError) { try base.syncDirectory(path) }
  func rename(_ source: String, to destination: String) throws(StoreError) {
    try base.rename(source, to: destination)
  }
  func remove(_ path: String) throws(StoreError) {
    if failRemovals, path.hasPrefix("/media/") {
      throw StoreError.system("unlink", .permissionDenied, path: path)
    }
    try base.remove(path)
  }
  func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }
  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 { try base.size(handle) }
  func fileSize(_ path: String) throws(StoreError) -> UInt64? { try base.fileSize(path) }
  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try base.createDirectory(path, permissions: permissions)
  }
  func freeSpace(_ path: String) throws(StoreError) -> UInt64 { try base.freeSpace(path) }
  func lock(_ handle: StoreFileHandle) throws(StoreError) { try base.lock(handle) }
}
