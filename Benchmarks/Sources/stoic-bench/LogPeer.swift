import BenchKit
import Foundation
import StoicTelemetry

/// The peers of the log scenarios, written here as common Swift loggers write a record.
enum LogPeer {
  /// As swift-log's `StreamLogHandler` does: the line
  /// `<timestamp> <level> <label> : <metadata sorted, key=value> [<source>] <message>` formatted
  /// (time from `localtime_r` + `strftime`), then `fwrite` + `fflush` to a `FILE *`.
  static func streamHandler(_ line: LogLine, count: Int, in directory: String) throws
    -> RunSample
  {
    guard let file = fopen(directory + "/stream-handler.log", "w") else {
      throw BenchError("fopen failed")
    }
    defer { fclose(file) }
    return RunSample.timing(count: count, latencies: true) { index in
      let pretty = line.metadata.lazy.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
        .joined(separator: " ")
      let text =
        "\(timestamp()) info \(line.label) : \(pretty) [\(line.source)] \(line.message(index))\n"
      flockfile(file)
      text.utf8CString.withUnsafeBufferPointer { buffer in
        _ = fwrite(buffer.baseAddress, 1, buffer.count - 1, file)
      }
      fflush(file)
      funlockfile(file)
    }
  }

  /// StreamLogHandler's timestamp: local time, `%Y-%m-%dT%H:%M:%S%z`.
  private static func timestamp() -> String {
    var buffer = [Int8](repeating: 0, count: 255)
    var timestamp = time(nil)
    var local = tm()
    localtime_r(&timestamp, &local)
    strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// One JSON object per line (time, level, label, message, metadata), one `write` per record,
  /// as common Swift file loggers do.
  static func jsonlWrite(_ line: LogLine, count: Int, in directory: String) throws -> RunSample {
    let file = try RawFile.create(directory + "/jsonl.log", append: true)
    defer { file.close() }
    return try RunSample.timing(count: count, latencies: true) { index in
      try file.write(Array(jsonLine(line, index).utf8))
    }
  }

  /// The JSON line of record `index`.
  static func jsonLine(_ line: LogLine, _ index: Int) -> String {
    var clock = timespec()
    clock_gettime(CLOCK_REALTIME, &clock)
    let nanoseconds = Int(clock.tv_sec) * 1_000_000_000 + Int(clock.tv_nsec)
    let metadata = line.metadata.sorted { $0.key < $1.key }
      .map { "\(quoted($0.key)):\(quoted($0.value.description))" }.joined(separator: ",")
    return "{\"time\":\(nanoseconds),\"level\":\"info\",\"label\":\(quoted(line.label)),"
      + "\"message\":\(quoted(line.message(index))),\"metadata\":{\(metadata)}}\n"
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// SQLite WAL `synchronous=NORMAL`, one row (the record's JSON line) per transaction.
  static func sqliteNormal(_ line: LogLine, count: Int, in directory: String) throws
    -> RunSample
  {
    let database = try SQLiteDatabase(
      path: directory + "/sqlite-normal-log.db", synchronous: "NORMAL")
    defer { database.close() }
    return try RunSample.timing(count: count, latencies: true) { index in
      try database.insert(Array(jsonLine(line, index).utf8))
    }
  }
}
