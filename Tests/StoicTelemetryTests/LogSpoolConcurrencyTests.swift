import Dispatch
import Foundation
import StoicStore
import StoicTesting
import Synchronization
import Testing

@testable import StoicTelemetry

/// Many threads logging at once: nothing lost, torn or reordered within a thread (checked by
/// content), and durable-level callers share their syncs.
@Suite("LogSpool with many threads")
struct LogSpoolConcurrencyTests {
  static func message(_ thread: Int, _ index: Int) -> String {
    "thread \(thread) record \(index) "
      + String(repeating: Character(UnicodeScalar(97 + thread % 26)!), count: index % 97)
  }

  @Test(
    "8 threads log 2,000 records each while a reader reads: every record there, whole, in order")
  func manyThreads() throws {
    try ScratchDirectory.with { scratch in
      var options = TelemetryOptions()
      options.logs.segmentSize = 64 << 10
      let spool = try TelemetrySpool.open(at: scratch + "/spool", options: options)
      let threads = 8
      let perThread = 2000
      let reading = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        // Reads go on while the loggers write, roll and compress.
        for _ in 0..<5 { _ = try? spool.logs.forEachRecord { _ in } }
        reading.signal()
      }
      Self.onThreads(threads) { thread in
        for index in 0..<perThread {
          let sequence = spool.logs.log(
            level: index % 50 == 49 ? .error : .info, label: "thread-\(thread)",
            message: Self.message(thread, index),
            metadata: [
              "thread": .stringConvertible(String(thread)),
              "index": .stringConvertible(String(index)),
            ])
          if sequence == nil { Issue.record("thread \(thread) record \(index) was dropped") }
        }
      }
      reading.wait()
      var next = [Int](repeating: 0, count: threads)
      var lastSequence: UInt64 = 0
      try spool.logs.forEachRecord { entry in
        #expect(entry.sequence > lastSequence)
        lastSequence = entry.sequence
        guard let record = entry.record else {
          Issue.record("unreadable record \(entry.sequence)")
          return
        }
        guard record.label.hasPrefix("thread-"), let thread = Int(record.label.dropFirst(7)) else {
          return
        }
        let index = next[thread]
        #expect(
          record.message == Self.message(thread, index), "thread \(thread): \(record.message)")
        #expect(record.metadata["index"] == .stringConvertible(String(index)))
        next[thread] += 1
      }
      #expect(next == [Int](repeating: perThread, count: threads))
      #expect(spool.dropCounts.total == 0)
      try spool.close()
    }
  }

  /// Runs `body` on `count` threads of their own at once and waits for all of them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
      Thread {
        body(index)
        done.signal()
      }.start()
    }
    for _ in 0..<count { done.wait() }
  }

  @Test("concurrent durable-level callers share syncs")
  func sharedSyncs() throws {
    let disk = SyncCountingFileSystem(SimulatedFileSystem(), syncDelay: 2000)
    var options = SpoolTestSupport.options()
    options.logs.backgroundMaintenance = true
    let spool = try SpoolTestSupport.open(disk, options: options)
    let threads = 8
    let perThread = 40
    let before = disk.syncCount
    let highest = SleepingLock<UInt64>(0)
    // Threads of their own: `concurrentPerform` runs only as many at once as there are cores.
    Self.onThreads(threads) { thread in
      for index in 0..<perThread {
        let sequence = spool.logs.log(level: .error, label: "t", message: "\(thread) \(index)")
        highest.withLock { $0 = max($0, sequence ?? 0) }
      }
    }
    let syncs = disk.syncCount - before
    let perSync = Double(threads * perThread) / Double(max(syncs, 1))
    #expect(perSync >= 1.5, "\(threads * perThread) durable records took \(syncs) syncs")
    // Each call returned once its record was durable.
    #expect(spool.logs.durableSequence >= highest.withLock { $0 })
    print(
      "concurrent durable logging: \(threads) threads, \(String(format: "%.1f", perSync)) records per sync"
    )
    try spool.close()
  }
}

/// Removing acknowledged or old records never holds up a logger: the journal writes the
/// checkpoint and removes the segments outside the lock appends take.
@Suite("LogSpool removals and loggers")
struct LogSpoolRemovalTests {
  @Test("a log call returns while a drop is in the middle of its checkpoint's sync")
  func dropDoesNotBlockLoggers() throws {
    let disk = SyncCountingFileSystem(SimulatedFileSystem())
    var options = SpoolTestSupport.options()
    options.logs.segmentSize = 1 << 10
    let spool = try SpoolTestSupport.open(disk, options: options)
    for index in 0..<40 {
      _ = spool.logs.log(level: .info, label: "app", message: "record \(index)")
    }
    let returned = SleepingLock<Bool?>(nil)
    disk.onSync = { handle in
      guard handle.path.hasSuffix("journal.checkpoint.tmp") else { return }
      // Another thread logs while this one is inside the drop's sync; it must not wait for it.
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        _ = spool.logs.log(level: .info, label: "app", message: "during the drop")
        done.signal()
      }
      let inTime = done.wait(timeout: .now() + .seconds(5)) == .success
      returned.withLock { $0 = $0 ?? inTime }
    }
    try spool.logs.dropThrough(spool.logs.lastSequence / 2)
    disk.onSync = nil
    #expect(returned.withLock { $0 } == true, "the log call waited for the drop")
    #expect(
      try SpoolTestSupport.records(spool).contains { $0.message == "during the drop" })
    try spool.close()
  }
}
