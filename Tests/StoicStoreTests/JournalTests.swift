import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StoicStore
@testable import StoicTesting

@Suite("Journal: appends, reads, segments, snapshots")
struct JournalTests {
  let directory = JournalTestSupport.directory

  @Test("appends get increasing sequences and read back after reopen")
  func appendAndReopen() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    #expect(journal.lastSequence == 0)
    for sequence in 1...5 as ClosedRange<UInt64> {
      #expect(try journal.append(JournalTestSupport.payload(sequence)) == sequence)
    }
    #expect(try journal.append(batch: [[1], [2, 2]]) == 6..<8)
    #expect(try journal.append(batch: []) == 8..<8)
    try journal.close()
    let reopened = try Journal.open(directory: directory, fileSystem: disk.crashedDurableOnly())
    defer { try? reopened.close() }
    let records = try reopened.records()
    #expect(records.map(\.sequence) == Array(1...7))
    #expect(records[0].payload == JournalTestSupport.payload(1))
    #expect(records[6].payload == [2, 2])
    #expect(reopened.lastSequence == 7)
    #expect(try reopened.records(from: 6).map(\.sequence) == [6, 7])
    #expect(reopened.recovery.truncatedBytes == 0)
  }

  @Test("reopening a closed journal writes and syncs nothing; one left unmarked is synced")
  func idleReopenWritesNothing() throws {
    let simulated = SimulatedFileSystem()
    let disk = JournalSyncCountingFileSystem(simulated)
    let first = try Journal.open(directory: directory, fileSystem: disk)
    for sequence in 1...5 as ClosedRange<UInt64> {
      try first.append(JournalTestSupport.payload(sequence))
    }
    try first.close()
    let segment = try #require(JournalTestSupport.activeSegment(on: simulated))
    let closed = try #require(simulated.durableContents(segment))
    for _ in 0..<3 {
      let syncs = disk.syncs
      let reopened = try Journal.open(directory: directory, fileSystem: disk)
      #expect(reopened.lastSequence == 5 && reopened.durableSequence == 5)
      try reopened.close()
      #expect(disk.syncs == syncs)
      #expect(simulated.contents(segment) == closed)
    }
    // A crash of the process before the records were synced: no marker claims them, so the
    // open makes them durable before it claims them, and the close marks them.
    let crashed = try Journal.open(
      directory: directory, fileSystem: disk, options: JournalOptions(syncPolicy: .never))
    try crashed.append(JournalTestSupport.payload(6))
    let image = JournalSyncCountingFileSystem(simulated.copy())
    let recovered = try Journal.open(directory: directory, fileSystem: image)
    #expect(image.syncs == 1)
    #expect(recovered.durableSequence == 6)
    try recovered.close()
    try crashed.close()
  }

  @Test("an append larger than maxRecordSize is refused and nothing is written")
  func tooLarge() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions()
    options.maxRecordSize = 8
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    #expect(throws: StoreError.self) { try journal.append(Array(repeating: 1, count: 9)) }
    #expect(journal.lastSequence == 0)
    #expect(try journal.append([1]) == 1)
  }

  @Test("a second open of the same journal fails with locked")
  func locked() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    do {
      _ = try Journal.open(directory: directory, fileSystem: disk)
      Issue.record("second open succeeded")
    } catch {
      #expect(error.code == .locked)
    }
    try journal.close()
    let again = try Journal.open(directory: directory, fileSystem: disk)
    try again.close()
  }

  @Test("a closed journal refuses appends with closed")
  func closed() throws {
    let journal = try Journal.open(directory: directory, fileSystem: SimulatedFileSystem())
    try journal.close()
    try journal.close()
    #expect(throws: StoreError.self) { try journal.append([1]) }
  }

  @Test("sync policies: never leaves records pending until sync, always makes each durable")
  func policies() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: JournalOptions(syncPolicy: .never))
    try journal.append([1])
    try journal.append([2])
    #expect(journal.durableSequence == 0)
    #expect(try Journal.readable(disk.crashedDurableOnly()).isEmpty)
    try journal.append([3], durable: true)
    #expect(journal.durableSequence == 3)
    #expect(try Journal.readable(disk.crashedDurableOnly()) == [1, 2, 3])
    try journal.append([4])
    try journal.sync()
    #expect(journal.durableSequence == 4)
    try journal.close()

    let every = SimulatedFileSystem()
    let batched = try Journal.open(
      directory: directory, fileSystem: every, options: JournalOptions(syncPolicy: .everyRecords(3))
    )
    try batched.append([1])
    try batched.append([2])
    #expect(batched.durableSequence == 0)
    try batched.append([3])
    #expect(batched.durableSequence == 3)
    try batched.close()
  }

  @Test("interval policy syncs in the background")
  func intervalPolicy() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: .interval(.milliseconds(5))))
    defer { try? journal.close() }
    try journal.append([1])
    var waited = 0
    while journal.durableSequence < 1 && waited < 2000 {
      usleepMilliseconds(5)
      waited += 1
    }
    #expect(journal.durableSequence == 1)
  }

  @Test("group commit from many threads: every append returns durable, in one sequence order")
  func groupCommitThreads() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: .groupCommit(maxDelay: .milliseconds(1), maxRecords: 8)))
    let threads = 8
    let perThread = 25
    let failures = SleepingLock<[String]>([])
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread {
        do {
          let sequence = try journal.append([UInt8(thread), UInt8(index)])
          if journal.durableSequence < sequence {
            failures.withLock { $0.append("not durable: \(sequence)") }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    #expect(journal.lastSequence == UInt64(threads * perThread))
    try journal.close()
    let records = try Journal.readable(disk.crashedDurableOnly())
    #expect(records.count == threads * perThread)
  }

  @Test("segments roll, sealed ones are compressed, and everything reads back in order")
  func segmentsRollAndCompress() throws {
    let disk = SimulatedFileSystem()
    let events = JournalEventLog()
    var options = JournalOptions(segmentSize: 300, readWindow: 128)
    options.maxRecordSize = 512
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: options, events: events.sink)
    for sequence in 1...60 as ClosedRange<UInt64> {
      try journal.append(Array(repeating: UInt8(sequence), count: 40))
    }
    try journal.compressSealedSegments()
    try journal.close()
    let names = disk.allPaths().filter { $0.hasPrefix(directory + "/journal-") }
    #expect(names.contains { $0.hasSuffix(".zst") })
    #expect(names.filter { $0.hasSuffix(".log") }.count == 1)
    #expect(!events.named(StoreEvents.journalCompacted.name).isEmpty)
    let reopened = try Journal.open(
      directory: directory, fileSystem: disk.crashedDurableOnly(), options: options)
    defer { try? reopened.close() }
    let records = try reopened.records()
    #expect(records.map(\.sequence) == Array(1...60))
    #expect(records.allSatisfy { $0.payload == Array(repeating: UInt8($0.sequence), count: 40) })
  }

  @Test("the borrowing read sees the same records as forEachRecord, across .zst and .log")
  func borrowingReadMatches() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(segmentSize: 300, readWindow: 128)
    options.maxRecordSize = 512
    options.backgroundMaintenance = false
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    for sequence in 1...60 as ClosedRange<UInt64> {
      try journal.append(JournalTestSupport.payload(sequence))
    }
    #expect(disk.allPaths().contains { $0.hasSuffix(".zst") })
    var borrowed: [JournalRecord] = []
    try journal.forEachRecordBorrowing(from: 7) { (sequence, payload) throws(StoreError) in
      borrowed.append(JournalRecord(sequence: sequence, payload: Array(payload)))
    }
    #expect(borrowed.map(\.sequence) == Array(7...60))
    #expect(borrowed == (try journal.records(from: 7)))
    #expect(borrowed.allSatisfy { $0.payload == JournalTestSupport.payload($0.sequence) })
  }

  @Test("background compression produces the same files as inline compression")
  func backgroundMaintenanceMatchesInline() throws {
    func run(background: Bool) throws -> [String: [UInt8]] {
      let disk = SimulatedFileSystem()
      var options = JournalOptions(segmentSize: 300, readWindow: 128)
      options.maxRecordSize = 512
      options.backgroundMaintenance = background
      let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
      for sequence in 1...60 as ClosedRange<UInt64> {
        try journal.append(Array(repeating: UInt8(sequence), count: 40))
        // Reads go on while segments are being compressed.
        if sequence % 20 == 0 { #expect(try journal.records().count == Int(sequence)) }
      }
      try journal.compressSealedSegments()
      try journal.close()
      var files: [String: [UInt8]] = [:]
      for path in disk.allPaths() where path.hasPrefix(directory + "/journal-") {
        files[path] = disk.contents(path)
      }
      return files
    }
    let inline = try run(background: false)
    let background = try run(background: true)
    #expect(inline.keys.contains { $0.hasSuffix(".zst") })
    #expect(background == inline)
  }

  @Test("dropThrough removes covered segments; a snapshot covers state and survives reopen")
  func dropAndSnapshot() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(segmentSize: 200, readWindow: 128)
    options.maxRecordSize = 512
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    for sequence in 1...30 as ClosedRange<UInt64> {
      try journal.append(JournalTestSupport.payload(sequence))
    }
    let segmentsBefore = disk.allPaths().filter { $0.contains("/journal-") }.count
    try journal.dropThrough(20)
    #expect(journal.lowWaterMark == 20)
    #expect(disk.allPaths().filter { $0.contains("/journal-") }.count < segmentsBefore)
    #expect(try journal.records().map(\.sequence) == Array(21...30))
    #expect(try journal.snapshot() == nil)
    let state = Array(repeating: UInt8(7), count: 5000)
    try journal.writeSnapshot(covering: 25, bytes: state)
    #expect(try journal.snapshot() == JournalSnapshot(sequence: 25, bytes: state))
    #expect(throws: StoreError.self) { try journal.writeSnapshot(covering: 99, bytes: []) }
    try journal.dropThrough(30)
    try journal.append([9])
    try journal.close()
    let reopened = try Journal.open(
      directory: directory, fileSystem: disk.crashedDurableOnly(), options: options)
    defer { try? reopened.close() }
    #expect(try reopened.snapshot() == JournalSnapshot(sequence: 25, bytes: state))
    #expect(try reopened.records() == [JournalRecord(sequence: 31, payload: [9])])
    #expect(reopened.lowWaterMark == 30)
  }

  @Test(
    "recovery holds at most one window (or one frame), readers that plus one compressed block, of a large journal"
  )
  func boundedWindow() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(
      syncPolicy: .never, segmentSize: 64 << 10, readWindow: 4096)
    options.maxRecordSize = 2048
    // Its own pool: blocks another test's journal left in the shared one keep their capacity.
    options.blockPool = JournalCompressedBlockPool(capacity: 2, bytesLimit: 4 << 20)
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    var random: UInt64 = 0x5EED
    func noise(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: random >> 33)
      }
    }
    for _ in 1...4000 { try journal.append(noise(1000)) }
    // The last segment is a plain .log bigger than the window.
    for sequence in 4001...4060 as ClosedRange<UInt64> {
      try journal.append(Array(repeating: UInt8(truncatingIfNeeded: sequence), count: 1000))
    }
    try journal.close()
    let total = disk.allPaths().compactMap { disk.contents($0)?.count }.reduce(0, +)
    let frame = JournalFrame.recordSize(payloadCount: options.maxRecordSize)
    let bound = 2 * max(options.readWindow, frame)
    // A compressed block holds at most one segment's (or blockTarget's) payload; a reader keeps
    // two, each with its stored bytes, its raw bytes (none here: noise is stored raw) and its
    // rebuilt payloads, and the stored bytes of the block it last decoded, plus the window.
    let block = min(JournalCompressedSegment.blockTarget, Int(options.segmentSize))
    let readBound = bound + 6 * block
    #expect(total > 10 * readBound)
    let reopened = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? reopened.close() }
    #expect(reopened.recovery.records == 4060)
    #expect(reopened.recovery.peakBufferBytes > 0)
    #expect(reopened.recovery.peakBufferBytes <= bound)
    var count = 0
    try reopened.forEachRecord { (_) throws(StoreError) in count += 1 }
    #expect(count == 4060)
    #expect(reopened.lastReadPeakBytes > 0)
    #expect(reopened.lastReadPeakBytes <= readBound)
  }
}

extension Journal {
  /// The sequences a fresh open of `disk` reads (closing it again).
  static func readable(_ disk: SimulatedFileSystem, options: JournalOptions = JournalOptions())
    throws -> [UInt64]
  {
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    return try journal.records().map(\.sequence)
  }
}

/// Sleeps without Foundation.
func usleepMilliseconds(_ milliseconds: Int) {
  let semaphore = DispatchSemaphore(value: 0)
  _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
}

/// Forwards to another file system and counts the file syncs, to show group commit shares them.
/// `syncLatency` makes each sync take as long as a device flush would (the simulated disk's
/// syncs are instant, so no appender could ever arrive during one).
final class JournalSyncCountingFileSystem: FileSystem {
  let base: any FileSystem
  let syncLatency: Duration
  /// Signalled as each sync starts, when given.
  let syncStarted: DispatchSemaphore?
  /// Runs on the syncing thread before each sync, when given (it may block, as a slow device
  /// would).
  let beforeSync: (@Sendable () -> Void)?
  private let count = Atomic<Int>(0)
  init(
    _ base: any FileSystem, syncLatency: Duration = .zero, syncStarted: DispatchSemaphore? = nil,
    beforeSync: (@Sendable () -> Void)? = nil
  ) {
    self.base = base
    self.syncLatency = syncLatency
    self.syncStarted = syncStarted
    self.beforeSync = beforeSync
  }
  var syncs: Int { count.load(ordering: .relaxed) }

  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoicStore.StoreFileHandle
  { try base.open(path, mode, permissions: permissions) }
  func close(_ handle: StoicStore.StoreFileHandle) throws(StoreError) { try base.close(handle) }
  func read(
    _ handle: StoicStore.StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer,
    at offset: UInt64
  )
    throws(StoreError) -> Int
  { try base.read(handle, into: buffer, at: offset) }
  func write(
    _ handle: StoicStore.StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64
  )
    throws(StoreError)
  { try base.write(handle, bytes, at: offset) }
  func map(_ handle: StoicStore.StoreFileHandle, length: UInt64) throws(StoreError)
    -> any FileMapping
  { try base.map(handle, length: length) }
  func truncate(_ handle: StoicStore.StoreFileHandle, to size: UInt64) throws(StoreError) {
    try base.truncate(handle, to: size)
  }
  func sync(_ handle: StoicStore.StoreFileHandle) throws(StoreError) {
    count.add(1, ordering: .relaxed)
    syncStarted?.signal()
    beforeSync?()
    if syncLatency > .zero {
      Thread.sleep(
        forTimeInterval: Double(syncLatency.components.attoseconds) / 1e18
          + Double(syncLatency.components.seconds))
    }
    try base.sync(handle)
  }
  func syncDirectory(_ path: String) throws(StoreError) { try base.syncDirectory(path) }
  func rename(_ source: String, to destination: String) throws(StoreError) {
    try base.rename(source, to: destination)
  }
  func remove(_ path: String) throws(StoreError) { try base.remove(path) }
  func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }
  func size(_ handle: StoicStore.StoreFileHandle) throws(StoreError) -> UInt64 {
    try base.size(handle)
  }
  func fileSize(_ path: String) throws(StoreError) -> UInt64? { try base.fileSize(path) }
  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    try base.createDirectory(path, permissions: permissions)
  }
  func freeSpace(_ path: String) throws(StoreError) -> UInt64 { try base.freeSpace(path) }
  func lock(_ handle: StoicStore.StoreFileHandle) throws(StoreError) { try base.lock(handle) }
}

@Suite("Journal group commit shares syncs")
struct JournalGroupCommitSharingTests {
  @Test("concurrent appenders under group commit need far fewer syncs than appends")
  func sharedSyncs() throws {
    let threads = 4
    let perThread = 20
    let (syncs, journal) = try Self.syncsForConcurrentAppends(
      .groupCommit(maxDelay: .milliseconds(500), maxRecords: 4), threads: threads,
      perThread: perThread)
    #expect(journal.durableSequence == UInt64(threads * perThread))
    // Without sharing every append would sync (threads * perThread); the margin below that
    // absorbs scheduling on a loaded machine, where fewer appenders arrive during a sync.
    #expect(
      syncs <= threads * perThread * 3 / 4, "\(syncs) syncs for \(threads * perThread) appends")
    try journal.close()
  }

  @Test(
    "a lone durable appender is not held for maxDelay: nobody else could join its sync",
    .timeLimit(.minutes(1)))
  func loneAppenderDoesNotWaitForTheDelay() throws {
    let disk = JournalSyncCountingFileSystem(SimulatedFileSystem())
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: .groupCommit(maxDelay: .seconds(600), maxRecords: 1000))
    )
    let before = disk.syncs
    for index in 0..<5 { try journal.append([UInt8(index)]) }
    #expect(journal.durableSequence == 5)
    #expect(disk.syncs - before == 5)
    try journal.close()
  }

  @Test("concurrent durable appenders with no gathering delay still share syncs")
  func sharedSyncsWithoutDelay() throws {
    let threads = 8
    let perThread = 10
    let (syncs, journal) = try Self.syncsForConcurrentAppends(
      .groupCommit(maxDelay: .zero, maxRecords: 1000), threads: threads, perThread: perThread)
    #expect(journal.durableSequence == UInt64(threads * perThread))
    // Without sharing every append would sync (threads * perThread); the margin below that
    // absorbs scheduling on a loaded machine, where fewer appenders arrive during a sync.
    #expect(
      syncs <= threads * perThread * 3 / 4, "\(syncs) syncs for \(threads * perThread) appends")
    try journal.close()
  }

  @Test(
    "under every policy, two durable appenders share each sync: the leader gathers the other",
    arguments: [
      SyncPolicy.always, .everyRecords(1), .groupCommit(maxDelay: .milliseconds(50), maxRecords: 9),
    ])
  func twoAppendersShareEverySync(policy: SyncPolicy) throws {
    // Without gathering, the two take turns: each sync covers the record of the one appender
    // that waited through the last sync, and the other's comes back too late (20 syncs).
    let perThread = 10
    let (syncs, journal) = try Self.syncsForConcurrentAppends(
      policy, threads: 2, perThread: perThread)
    #expect(journal.durableSequence == UInt64(2 * perThread))
    #expect(syncs <= perThread + 4, "\(syncs) syncs for \(2 * perThread) appends")
    try journal.close()
  }

  @Test(
    "a group-commit leader hands over, and the next one gathers the last sync's appenders",
    .timeLimit(.minutes(1)))
  func nextLeaderGathersTheLastGroup() throws {
    // A syncs its record; B appends during that sync and waits. A leader that went on
    // syncing for B would hold A's thread, so A's next record would need a third sync. With a
    // handover, B leads the next sync and, as the last one released two appenders, gathers
    // A's next record into it: two syncs for three records.
    let syncStarted = DispatchSemaphore(value: 0)
    let disk = JournalSyncCountingFileSystem(
      SimulatedFileSystem(), syncLatency: .milliseconds(100), syncStarted: syncStarted)
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: .groupCommit(maxDelay: .seconds(5), maxRecords: 1000)))
    let before = disk.syncs
    while syncStarted.wait(timeout: .now()) == .success {}  // the open's own syncs
    let appended = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      syncStarted.wait()
      _ = try? journal.append([2])
      appended.signal()
    }
    try journal.append([1])
    try journal.append([3])
    appended.wait()
    #expect(journal.durableSequence == 3)
    #expect(disk.syncs - before == 2)
    try journal.close()
  }

  /// Opens a journal under `policy` on a disk whose syncs take 10 ms (like a device flush),
  /// appends from real threads, and returns the syncs those appends needed, with the journal
  /// (still open).
  static func syncsForConcurrentAppends(
    _ policy: SyncPolicy, threads: Int, perThread: Int
  ) throws -> (syncs: Int, journal: Journal) {
    let disk = JournalSyncCountingFileSystem(
      SimulatedFileSystem(), syncLatency: .milliseconds(10))
    let journal = try Journal.open(
      directory: JournalTestSupport.directory, fileSystem: disk,
      options: JournalOptions(syncPolicy: policy))
    let before = disk.syncs
    appendFromThreads(journal, threads: threads, perThread: perThread)
    return (disk.syncs - before, journal)
  }

  /// Appends `perThread` records from each of `threads` real threads and waits for all of them.
  /// Real threads: a dispatch pool on two cores would run only two appenders at a time.
  static func appendFromThreads(_ journal: Journal, threads: Int, perThread: Int) {
    let done = DispatchSemaphore(value: 0)
    for thread in 0..<threads {
      Thread.detachNewThread {
        for index in 0..<perThread { _ = try? journal.append([UInt8(thread), UInt8(index)]) }
        done.signal()
      }
    }
    for _ in 0..<threads { done.wait() }
  }
}
