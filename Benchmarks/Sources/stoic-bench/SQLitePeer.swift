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
}
