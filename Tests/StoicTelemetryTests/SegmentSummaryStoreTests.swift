import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// What a summary lookup finds: the summary saved for the range, nothing, or a file that does
/// not serve (another range, bytes that do not check, a file larger than any summary).
@Suite("Segment summary store")
struct SegmentSummaryStoreTests {
  static let directory = "/spool/summaries"

  /// A summary of records 1…3 at levels info and error.
  static func summary() -> SegmentSummary {
    var builder = SegmentSummary.Builder(first: 1, last: 3)
    for (sequence, level) in [(1, LogLevel.info), (2, .error), (3, .info)] {
      let record = LogRecord(
        sequence: UInt64(sequence), timeNanoseconds: 1_000 * Int64(sequence), level: level,
        label: "app", message: "m", metadata: [:], source: "App", file: "App/main.swift",
        function: "run()", line: 1)
      LogRecordFormat.encode(record).withUnsafeBytes { builder.add($0) }
    }
    return builder.finished
  }

  @Test("the saved summary is found for its range; none is missing; another range is invalid")
  func savedMissingAndOtherRange() throws {
    let disk = SimulatedFileSystem()
    let store = SegmentSummaryStore(directory: Self.directory, fileSystem: disk)
    #expect(store.lookup(first: 1, last: 3) == .missing)
    let summary = Self.summary()
    try store.save(summary)
    #expect(store.lookup(first: 1, last: 3) == .valid(summary))
    #expect(store.lookup(first: 1, last: 4) == .invalid)
    #expect(store.lookup(first: 4, last: 9) == .missing)
  }

  @Test(
    "a file that does not check, or is larger than any summary, is invalid",
    arguments: [7, Int(SegmentSummaryStore.maximumFileSize) + 1])
  func unreadableFiles(size: Int) throws {
    let disk = SimulatedFileSystem()
    let store = SegmentSummaryStore(directory: Self.directory, fileSystem: disk)
    try store.save(Self.summary())
    let handle = try disk.open(store.path(first: 1), .readWrite)
    try disk.truncate(handle, to: 0)
    try disk.write(handle, [UInt8](repeating: 0x5A, count: size), at: 0)
    try disk.close(handle)
    #expect(store.lookup(first: 1, last: 3) == .invalid)
  }
}
