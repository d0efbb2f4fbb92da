import BenchKit
import Foundation
import StoicStore

/// The child side of the replay scenarios: opens and fully replays a journal several times
/// (after one untimed pass that warms the page cache) and prints a ``ReplayChildReport``.
/// Running in its own process makes `VmHWM` the peak of this replay alone.
enum ReplayChild {
  static func run(directory: String, runs: Int) throws {
    _ = try replayOnce(directory)
    var seconds: [Double] = []
    var last = (bytes: 0, records: 0, peakBuffer: 0)
    for _ in 0..<runs {
      let start = MonotonicClock.now()
      last = try replayOnce(directory)
      seconds.append(MonotonicClock.seconds(since: start))
    }
    let report = ReplayChildReport(
      seconds: seconds, payloadBytes: last.bytes, records: last.records,
      peakRSSBytes: try peakResidentBytes(), peakBufferBytes: last.peakBuffer)
    let line = try JSONEncoder().encode(report)
    FileHandle.standardOutput.write(line + Data("\n".utf8))
  }

  /// Opens the journal, visits every record, closes it.
  private static func replayOnce(_ directory: String) throws -> (
    bytes: Int, records: Int, peakBuffer: Int
  ) {
    // Compression off: reading `.zst` segments works either way, and the open must not start
    // compressing the `.log` segments of the uncompressed variant in the background.
    let journal = try StoicContender.open(directory, policy: .never, compress: false)
    var bytes = 0
    var records = 0
    try journal.forEachRecordBorrowing { (_, payload) throws(StoreError) in
      bytes += payload.count
      records += 1
    }
    let peakBuffer = journal.recovery.peakBufferBytes
    try journal.close()
    return (bytes, records, peakBuffer)
  }

  /// `VmHWM` from `/proc/self/status`.
  static func peakResidentBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.filter(\.isNumber)
      if let kilobytes = Int(digits) { return kilobytes * 1024 }
    }
    throw BenchError("no VmHWM in /proc/self/status")
  }
}
