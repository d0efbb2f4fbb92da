import Foundation
import StoicCollector
import StoicForwarding
import StoicTelemetry

/// Scratch directories, the collector's records, the spool's records.
enum StoicTestSupport {
  /// A new directory under the system's temporary directory.
  static func scratchDirectory(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "stoic-\(name)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Runs `body` with a new scratch directory and the example collector started in its
  /// `collector/` folder (on 127.0.0.1, an ephemeral port); stops it and removes the directory
  /// afterwards.
  static func withCollector(
    _ name: String, _ body: (_ directory: String, _ collector: Collector) async throws -> Void
  ) async throws {
    let directory = try scratchDirectory(name)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Collector.start(
      CollectorOptions(dataDirectory: directory + "/collector"))
    do {
      try await body(directory, collector)
    } catch {
      try? await collector.stop()
      throw error
    }
    try await collector.stop()
  }

  /// The labels of the log records left in the spool at `directory` (after its low-water
  /// mark), read by opening it again once it was closed; `<unreadable>` for a record that does
  /// not decode.
  static func labelsLeft(inSpool directory: String) throws -> [String] {
    let spool = try TelemetrySpool.open(at: directory)
    defer { try? spool.close() }
    var labels: [String] = []
    try spool.logs.forEachRecord(from: spool.logs.lowWaterMark + 1) { entry in
      labels.append(entry.record?.label ?? "<unreadable>")
    }
    return labels
  }

  /// Whether every log record left in the spool at `directory` is one of the spool's own event
  /// records (which a shutdown may raise after its final drain), none an app's.
  static func onlySpoolEventsLeft(inSpool directory: String) throws -> Bool {
    try labelsLeft(inSpool: directory).allSatisfy { $0 == LogSpool.eventLabel }
  }

  /// The `seq` metadata of every record labelled `label` the collector holds, in arrival order.
  static func delivered(_ collector: Collector, label: String) throws -> [Int] {
    try collector.archive.logRecords().compactMap { received -> Int? in
      guard case .string(label) = received.record.attribute("log.label"),
        case .string(let seq) = received.record.attribute("seq")
      else { return nil }
      return Int(seq)
    }
  }

  /// The largest value the collector received for the monotonic counter `name`.
  static func counterValue(_ collector: Collector, name: String) throws -> Int64? {
    var largest: Int64?
    for received in try collector.archive.metrics() where received.metric.name == name {
      guard case .sum(let sum) = received.metric.data else { continue }
      for point in sum.dataPoints {
        if case .int(let value) = point.value { largest = max(largest ?? value, value) }
      }
    }
    return largest
  }

  /// The `seq` metadata of every record labelled `label` still in the spool.
  static func spooled(_ spool: TelemetrySpool, label: String) throws -> [Int] {
    try spool.logs.entries().compactMap(\.record).filter { $0.label == label }.compactMap {
      guard case .string(let seq) = $0.metadata["seq"] else { return nil }
      return Int(seq)
    }
  }

  /// The last value of the counter `name` sampled into the spool.
  static func sampledCounter(_ spool: TelemetrySpool, name: String) throws -> Int64? {
    var last: Int64?
    _ = try spool.metrics.forEachSample { _, sample in
      if sample.name == name, case .integer(let value) = sample.value { last = value }
    }
    return last
  }
}
