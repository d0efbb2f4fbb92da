import Foundation
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

@Suite("TelemetrySpool: logs, metrics and drop counts in one directory")
struct TelemetrySpoolTests {
  /// The last sample of the drop-count series for `reason`, if any.
  static func droppedSample(_ spool: TelemetrySpool, reason: String) throws -> Int64? {
    var last: Int64?
    _ = try spool.metrics.forEachSample { (_, sample) throws(StoreError) in
      guard sample.name == TelemetrySpool.droppedRecordsMetric,
        sample.dimensions.contains(where: { $0.key == "reason" && $0.value == reason }),
        case .integer(let value) = sample.value
      else { return }
      last = value
    }
    return last
  }

  @Test("metrics live beside the logs and survive a close and a reopen")
  func metricsBesideLogs() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    spool.logs.log(level: .info, label: "app", message: "hello")
    spool.metrics.counter(label: "app.requests").increment(by: 3)
    try spool.close()
    #expect(disk.allPaths().contains { $0.hasPrefix(SpoolTestSupport.root + "/metrics/") })

    let reopened = try SpoolTestSupport.open(disk)
    #expect(reopened.metrics.counter(label: "app.requests").value == 3)
    #expect(try SpoolTestSupport.records(reopened).contains { $0.message == "hello" })
    try reopened.close()
  }

  @Test("an empty directory path is refused, not taken as the root directory")
  func emptyDirectoryIsRefused() throws {
    let disk = SimulatedFileSystem()
    #expect {
      try TelemetrySpool.open(at: "", fileSystem: disk)
    } throws: { error in
      (error as? StoreError)?.code == .invalidArgument
    }
    #expect(disk.allPaths().isEmpty, "\(disk.allPaths())")
  }

  @Test("a directory given as a symbolic link is refused, never followed; a link above it is fine")
  func symbolicLinkIsRefused() throws {
    let scratch = NSTemporaryDirectory() + "stoic-symlink-" + UUID().uuidString
    try FileManager.default.createDirectory(
      atPath: scratch + "/target", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try FileManager.default.createSymbolicLink(
      atPath: scratch + "/link", withDestinationPath: scratch + "/target")
    for path in [scratch + "/link", scratch + "/link/", scratch + "/link//"] {
      #expect {
        try TelemetrySpool.open(at: path)
      } throws: { error in
        (error as? StoreError)?.code == .invalidArgument
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/target").isEmpty)
    // A link above the spool's own directory is an ordinary path.
    let spool = try TelemetrySpool.open(at: scratch + "/link/spool")
    try spool.close()
    #expect(FileManager.default.fileExists(atPath: scratch + "/target/spool/spool.id"))
  }

  @Test("the drop counts are published as the metric stoic.spool.dropped, one series a reason")
  func dropCountsForwardedAsMetric() throws {
    let disk = SimulatedFileSystem()
    var options = SpoolTestSupport.options()
    options.logs.byteLimit = 16 << 10
    options.logs.whenFull = .dropNewest
    let spool = try SpoolTestSupport.open(disk, options: options)
    let message = String(repeating: "x", count: 200)
    for _ in 0..<400 { spool.logs.log(level: .info, label: "app", message: message) }
    try spool.flush()
    let dropped = spool.dropCounts.quota
    #expect(dropped > 0, "the byte limit dropped nothing")
    #expect(try Self.droppedSample(spool, reason: "quota") == Int64(dropped))
    try spool.close()

    // After a restart the counts go on from where they were, in the metric as well.
    let reopened = try SpoolTestSupport.open(disk, options: options)
    for _ in 0..<50 { reopened.logs.log(level: .info, label: "app", message: message) }
    // The flush writes the spool's pending events (a drop report among them) before it samples,
    // and under this byte limit they are dropped too: read the total after it.
    try reopened.flush()
    let total = reopened.dropCounts.quota
    #expect(total > dropped)
    let sample = try Self.droppedSample(reopened, reason: "quota")
    #expect(
      sample == Int64(total),
      "sample \(String(describing: sample)) dropped \(dropped) total \(total)")
    try reopened.close()
  }

  @Test("the event catalog lists the metrics spool's events and the storage core's")
  func catalog() {
    let names = Set(TelemetrySpool.eventCatalog.entries.map(\.name))
    #expect(names.contains("spool.metrics_series_folded"))
    #expect(names.contains("spool.records_dropped"))
    #expect(names.contains("store.journal_truncated"))
  }
}
