import Foundation

/// SQLite as a peer, through its C API, in WAL mode.
enum SQLitePeer {
  /// `synchronous=NORMAL`, one row per transaction: durable against a process crash, not
  /// against power loss (the WAL is synced only at checkpoints).
  static func normalPerRow(_ workload: Workload, in directory: String, latencies: Bool = false)
    throws -> RunSample
  {
    let database = try SQLiteDatabase(
      path: directory + "/sqlite-normal.db", synchronous: "NORMAL")
    defer { database.close() }
    return try RunSample.timing(count: workload.count, latencies: latencies) { index in
      try database.insert(workload.payload(index))
    }
  }

  /// `synchronous=FULL`, `k` rows per transaction: every commit syncs the WAL, so each
  /// transaction is durable against power loss.
  static func fullBatched(_ workload: Workload, every k: Int, in directory: String) throws
    -> RunSample
  {
    let database = try SQLiteDatabase(path: directory + "/sqlite-full.db", synchronous: "FULL")
    defer { database.close() }
    return try RunSample.timing(count: workload.count, latencies: false) { index in
      if index % k == 0 { try database.execute("BEGIN") }
      try database.insert(workload.payload(index))
      if (index + 1) % k == 0 || index + 1 == workload.count { try database.execute("COMMIT") }
    }
  }

  /// `synchronous=FULL`, `threads` threads each inserting its workload one row per
  /// transaction (each commit syncs the WAL before it returns), through one connection whose
  /// inserts a lock serialises (SQLite serialises its writers anyway; one connection spares
  /// them its busy-retry sleeps); records/s.
  static func fullPerRowConcurrent(_ perThread: Workload, threads: Int, in directory: String)
    throws -> Double
  {
    let shared = SharedDatabase(
      try SQLiteDatabase(path: directory + "/sqlite-full-rows.db", synchronous: "FULL"))
    defer { shared.database.close() }
    let seconds = try ParallelRun.seconds(threads: threads) { _ in
      for index in 0..<perThread.count {
        try shared.insert(perThread.payload(index))
      }
    }
    return Double(perThread.count * threads) / seconds
  }
}

/// One SQLite connection shared by threads, each insert under a lock that puts waiting
/// threads to sleep.
private final class SharedDatabase: @unchecked Sendable {
  let database: SQLiteDatabase
  private let lock = NSLock()

  init(_ database: SQLiteDatabase) { self.database = database }

  func insert(_ payload: [UInt8]) throws {
    lock.lock()
    defer { lock.unlock() }
    try database.insert(payload)
  }
}
