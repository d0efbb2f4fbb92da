import BenchKit
import StoicStore

/// Reference figures for the compaction scenario: plain zstd over the first 8 MiB of the same
/// corpus (the lines alone, without the journal's framing) at levels 3 and 1 (the journal's
/// default), in 1 MiB blocks (the journal's block size since format 2; 64 KiB before) and as
/// one 8 MiB frame (a whole segment), to show what the level and the block size cost and what
/// the journal's record coding adds on top of plain zstd.
enum CompactionReference {
  static func notes(lines: [[UInt8]]) -> [String] {
    var segment: [UInt8] = []
    segment.reserveCapacity(8 << 20)
    for line in lines {
      guard segment.count + line.count <= 8 << 20 else { break }
      segment.append(contentsOf: line)
    }
    let cases: [(level: Int32, blockSize: Int, label: String)] = [
      (3, 1 << 20, "1 MiB blocks"), (3, segment.count, "one 8 MiB frame"),
      (1, 1 << 20, "1 MiB blocks"), (1, segment.count, "one 8 MiB frame"),
    ]
    return cases.map { item in
      guard let figures = measure(segment, level: item.level, blockSize: item.blockSize) else {
        return "reference zstd -\(item.level) failed"
      }
      return "reference, plain zstd -\(item.level) on \(item.label): ratio "
        + "\(Format.ratio(figures.ratio)), \(Format.number(figures.mbps)) MB/s in"
    }
  }

  private static func measure(_ bytes: [UInt8], level: Int32, blockSize: Int) -> (
    ratio: Double, mbps: Double
  )? {
    var output = 0
    let start = MonotonicClock.now()
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + blockSize)
      guard let packed = try? Zstd.compress(Array(bytes[offset..<end]), level: level) else {
        return nil
      }
      output += packed.count
      offset = end
    }
    let seconds = MonotonicClock.seconds(since: start)
    return (Double(bytes.count) / Double(output), Double(bytes.count) / seconds / 1e6)
  }
}
