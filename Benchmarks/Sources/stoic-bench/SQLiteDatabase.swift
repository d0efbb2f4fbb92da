import BenchKit
import CSQLite

/// A SQLite database in WAL mode with one table of blobs, through the C API.
final class SQLiteDatabase {
  private var connection: OpaquePointer?
  private var insertStatement: OpaquePointer?
  private let path: String

  /// Opens (creating) the database with `journal_mode=WAL` and the given `synchronous` mode
  /// (`NORMAL` or `FULL`), and prepares the insert.
  init(path: String, synchronous: String) throws {
    self.path = path
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK else {
      let message = failure("open")
      sqlite3_close(connection)
      throw message
    }
    do {
      try execute("PRAGMA journal_mode=WAL")
      try execute("PRAGMA synchronous=\(synchronous)")
      try execute("CREATE TABLE IF NOT EXISTS records(id INTEGER PRIMARY KEY, payload BLOB)")
      let sql = "INSERT INTO records(payload) VALUES (?1)"
      guard sqlite3_prepare_v2(connection, sql, -1, &insertStatement, nil) == SQLITE_OK else {
        throw failure("prepare")
      }
    } catch {
      close()
      throw error
    }
  }

  /// Runs SQL that returns no rows the caller needs.
  func execute(_ sql: String) throws {
    guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else {
      throw failure(sql)
    }
  }

  /// Inserts one row (its own transaction unless one is open).
  func insert(_ payload: [UInt8]) throws {
    let status = payload.withUnsafeBytes { raw -> Int32 in
      // A nil destructor is SQLITE_STATIC: the bytes stay valid until the step is done.
      sqlite3_bind_blob(insertStatement, 1, raw.baseAddress, Int32(raw.count), nil)
      let step = sqlite3_step(insertStatement)
      sqlite3_reset(insertStatement)
      return step
    }
    guard status == SQLITE_DONE else { throw failure("insert") }
  }

  func close() {
    sqlite3_finalize(insertStatement)
    insertStatement = nil
    sqlite3_close(connection)
    connection = nil
  }

  deinit {
    if connection != nil { close() }
  }

  private func failure(_ what: String) -> BenchError {
    let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
    return BenchError("sqlite \(what) failed on \(path): \(message)")
  }
}
