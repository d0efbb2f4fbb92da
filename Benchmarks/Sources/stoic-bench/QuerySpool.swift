import BenchKit
import StoicStore
import StoicTelemetry

/// The spool the `query` scenario searches: the log journal of a telemetry spool
/// (`<root>/logs`), written directly with records whose times are spread evenly over two days,
/// one in twenty at the error level, the rest debug, info or warning; sealed segments
/// compressed, as the spool leaves them.
struct QuerySpool {
  /// The first record's time (2026-12-01T00:00:00Z).
  static let start: Int64 = 1_796_083_200 * 1_000_000_000
  static let hour: Int64 = 3_600 * 1_000_000_000
  /// The time the records span.
  static let span = 48 * hour

  let root: String
  let records: Int
  /// Uncompressed bytes of the records.
  let bytes: Int

  /// Writes about `bytes` of records into `root/logs` in segments of `segmentSize`.
  static func make(at root: String, bytes target: Int, segmentSize: UInt64) throws -> QuerySpool {
    let journal = try Journal.open(
      directory: root + "/logs", fileSystem: PosixFileSystem(),
      options: JournalOptions(
        syncPolicy: .never, segmentSize: segmentSize, backgroundMaintenance: false))
    let line = LogLine()
    let levels: [LogLevel] = [.info, .debug, .info, .warning]
    // One record's encoding is the same size whatever its level and time.
    let size = LogRecordFormat.encode(record(0, of: 1, line: line, levels: levels)).count
    let count = max(target / size, 1)
    var bytes = 0
    for index in 0..<count {
      let encoded = LogRecordFormat.encode(record(index, of: count, line: line, levels: levels))
      _ = try journal.append(encoded)
      bytes += encoded.count
    }
    try journal.compressSealedSegments()
    try journal.close()
    return QuerySpool(root: root, records: count, bytes: bytes)
  }

  private static func record(_ index: Int, of count: Int, line: LogLine, levels: [LogLevel])
    -> LogRecord
  {
    LogRecord(
      timeNanoseconds: start + Int64(Double(span) * Double(index) / Double(count)),
      level: index % 20 == 7 ? .error : levels[index % levels.count], label: line.label,
      message: line.message(index), metadata: line.metadata, source: line.source,
      file: "Orders.swift", function: "serve(_:)", line: UInt(index % 500))
  }

  /// Every record decoded and filtered, without summaries or header checks: the brute force
  /// the query is compared with. Returns the number that matched.
  func bruteForce(_ query: LogQuery) throws -> Int {
    let journal = try Journal.open(
      directory: root + "/logs", fileSystem: PosixFileSystem(), options: LogQuery.readingOptions())
    defer { try? journal.close() }
    var matched = 0
    var unreadable = 0
    try journal.forEachRecordBorrowing(from: journal.lowWaterMark + 1) {
      (sequence, bytes) throws(StoreError) in
      do {
        if query.matches(try LogRecordFormat.decode(bytes, sequence: sequence)) { matched += 1 }
      } catch {
        unreadable += 1
      }
    }
    if unreadable > 0 { throw BenchError("query: \(unreadable) records unreadable") }
    return matched
  }
}
