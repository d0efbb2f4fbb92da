import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// How a reopened spool treats its live files: adopted in the same boot, set aside and rebuilt
/// after a restart of the machine, quarantined when damaged, never a crash.
@Suite("MetricsSpool live files at open")
struct MetricsLiveFileTests {
  typealias Support = MetricsTestSupport
  static let live0 = "metrics/live-0.map"

  static func open(
    _ disk: SimulatedFileSystem, boot: [UInt8] = Support.bootA, events: EventSink = .discard
  ) throws -> MetricsSpool {
    try MetricsSpool.open(
      directory: "metrics", fileSystem: disk, options: Support.options(boot: boot),
      events: events)
  }

  /// A disk whose spool flushed `c` = 5, then counted it to 12 and `h` without flushing, as the
  /// kernel holds it after the process ended (nothing synced beyond the flush).
  static func prepared() throws -> SimulatedFileSystem {
    let disk = SimulatedFileSystem()
    let spool = try open(disk)
    let counter = spool.counter(label: "c")
    counter.increment(by: 5)
    try spool.flush()
    counter.increment(by: 7)
    spool.histogram(label: "h").record(1)
    // As the kernel holds it after the process ended; settled, so that a test can damage it.
    let copy = disk.copy()
    copy.settle()
    return copy
  }

  /// The offset in live-0.map of the first byte of the identity of series `name`.
  static func offset(of name: String, in bytes: [UInt8]) -> Int? {
    let needle = [UInt8(name.utf8.count), 0] + Array(name.utf8)
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first {
      Array(bytes[$0..<($0 + needle.count)]) == needle
    }
  }

  @Test("a damaged series record in this boot quarantines the live file; the journal takes over")
  func damagedRecord() throws {
    let disk = try Self.prepared()
    let bytes = try #require(disk.contents(Self.live0))
    let offset = try #require(Self.offset(of: "c", in: bytes))
    disk.damage(Self.live0, at: offset + 2, with: [UInt8(ascii: "x")])
    let events = MetricsEventLog()
    let spool = try Self.open(disk, events: events.sink)
    #expect(Support.current(spool, "c")?.value == .integer(5))
    #expect(Support.current(spool, "h") == nil)
    #expect(disk.allPaths().contains("metrics/live-0.map.corrupt-1"))
    #expect(events.named("spool.metrics_live_quarantined").count == 1)
    #expect(spool.recovery.rebuiltReason?.contains("does not check") == true)
    try spool.close()
    // A second damage does not replace the first quarantined file.
    // (On a copy: the closed spool's mapping still holds the undamaged bytes.)
    let later = disk.copy()
    later.settle()
    later.damage(Self.live0, at: MetricsLiveFormat.headerSize + 9, with: [0x7F])
    let reopened = try Self.open(later)
    #expect(later.allPaths().contains("metrics/live-0.map.corrupt-2"))
    #expect(later.allPaths().contains("metrics/live-0.map.corrupt-1"))
    try reopened.close()
  }

  @Test("a header that does not check sets the live file aside; nothing is lost that was synced")
  func damagedHeader() throws {
    let disk = try Self.prepared()
    disk.damage(Self.live0, at: 30, with: [0xFF])
    let spool = try Self.open(disk)
    #expect(Support.current(spool, "c")?.value == .integer(5))
    #expect(disk.allPaths().contains("metrics/live-0.map.stale"))
    try spool.close()
  }

  @Test("a record stored but not published (killed before its used word) is ignored")
  func unpublished() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.open(disk)
    spool.counter(label: "a").increment()
    spool.counter(label: "b").increment()
    let copy = disk.copy()
    var bytes = try #require(copy.contents(Self.live0))
    // Move `used` back over the second record: its bytes stay, unpublished.
    let used = bytes.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: MetricsLiveFormat.usedOffset, as: UInt64.self)
    }
    let second = try #require(Self.offset(of: "b", in: bytes))
    let recordStart = UInt64(second / 64 * 64)
    #expect(recordStart < used)
    withUnsafeBytes(of: recordStart.littleEndian) { word in
      bytes.replaceSubrange(
        MetricsLiveFormat.usedOffset..<(MetricsLiveFormat.usedOffset + 8), with: word)
    }
    copy.setDurableContents(Self.live0, bytes)
    let reopened = try Self.open(copy)
    #expect(reopened.recovery.rebuiltReason == nil)
    #expect(reopened.currentSamples().map(\.name) == ["a"])
    // The next series takes the unpublished record's place.
    reopened.counter(label: "z").increment()
    #expect(reopened.currentSamples().map(\.name) == ["a", "z"])
    try reopened.close()
    _ = spool
  }

  @Test("a later extent without live-0.map, and temporaries, are set aside or removed")
  func strayFiles() throws {
    let disk = try Self.prepared()
    let bytes = try #require(disk.contents(Self.live0))
    disk.setDurableContents("metrics/live-3.map", bytes)
    disk.setDurableContents("metrics/live-1.map.tmp", [1, 2, 3])
    try disk.remove(Self.live0)
    let spool = try Self.open(disk)
    #expect(spool.recovery.rebuiltReason == "live-0.map is missing")
    #expect(Support.current(spool, "c")?.value == .integer(5))
    let paths = disk.allPaths()
    #expect(paths.contains("metrics/live-3.map.stale"))
    #expect(!paths.contains("metrics/live-1.map.tmp"))
    try spool.close()
  }

  @Test("an extent after a gap in the same boot is damage")
  func gap() throws {
    let disk = try Self.prepared()
    let bytes = try #require(disk.contents(Self.live0))
    disk.setDurableContents("metrics/live-2.map", bytes)
    let spool = try Self.open(disk)
    #expect(disk.allPaths().contains("metrics/live-2.map.corrupt-1"))
    #expect(disk.allPaths().contains("metrics/live-0.map.corrupt-1"))
    #expect(Support.current(spool, "c")?.value == .integer(5))
    try spool.close()
  }

  @Test("without a boot identity the spool always continues from the journal")
  func noBootIdentity() throws {
    let disk = try Self.prepared()
    var options = Support.options()
    options.bootIdentity = nil
    let spool = try MetricsSpool.open(directory: "metrics", fileSystem: disk, options: options)
    #expect(spool.recovery.rebuiltReason == "no boot identity on this platform")
    #expect(Support.current(spool, "c")?.value == .integer(5))
    try spool.close()
  }

  @Test("hostile live files never crash open, in this boot or another")
  func hostile() throws {
    let base = try Self.prepared()
    let good = try #require(base.contents(Self.live0))
    var random = SplitMix64(seed: 7)
    for round in 0..<120 {
      let disk = base.copy()
      var bytes = good
      switch round % 4 {
      case 0:  // random bytes everywhere after the header
        for index in MetricsLiveFormat.headerSize..<min(bytes.count, 2048) {
          bytes[index] = UInt8(truncatingIfNeeded: random.next())
        }
      case 1:  // a few flipped bits anywhere in the used part
        for _ in 0..<4 {
          let index = Int(random.next() % 512)
          bytes[index] ^= UInt8(1) << UInt8(random.next() % 8)
        }
      case 2:  // a random `used`
        withUnsafeBytes(of: random.next()) { word in
          bytes.replaceSubrange(
            MetricsLiveFormat.usedOffset..<(MetricsLiveFormat.usedOffset + 8), with: word)
        }
      default:  // cut short
        bytes = Array(bytes.prefix(Int(random.next() % 200)))
      }
      disk.setDurableContents(Self.live0, bytes)
      for boot in [Support.bootA, Support.bootB] {
        let copy = disk.copy()
        let spool = try Self.open(copy, boot: boot)
        // Whatever was adopted is readable and usable; the journal's sample is never below.
        let value = Support.current(spool, "c")?.value
        if spool.recovery.rebuiltReason != nil { #expect(value == .integer(5)) }
        spool.counter(label: "c").increment()
        try spool.flush()
        try spool.close()
      }
    }
  }

  @Test("series spread over several live files are adopted, or rebuilt, whole")
  func severalExtents() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.open(disk)
    for id in 0..<700 {
      spool.histogram(label: "h", dimensions: [("id", "\(id)")]).record(Double(id))
    }
    try spool.flush()
    #expect(disk.allPaths().contains("metrics/live-2.map"))
    let sameBoot = try Self.open(disk.copy())
    #expect(sameBoot.recovery.rebuiltReason == nil)
    #expect(sameBoot.seriesCount == 700)
    let rebooted = disk.copy()
    let rebuilt = try Self.open(rebooted, boot: Support.bootB)
    #expect(rebuilt.recovery.rebuiltReason != nil)
    #expect(rebuilt.seriesCount == 700)
    let sample = Support.current(rebuilt, "h", [MetricDimension("id", "699")])
    guard case .histogram(let histogram) = sample?.value else {
      Issue.record("no histogram")
      return
    }
    #expect(histogram.count == 1 && histogram.sum == 699 && histogram.max == 699)
    #expect(rebooted.allPaths().contains("metrics/live-2.map.stale"))
    try rebuilt.close()
    _ = (spool, sameBoot)
  }

  @Test("the header and record fields are at the offsets the layout names")
  func namedOffsets() throws {
    let disk = SimulatedFileSystem()
    let spool = try Self.open(disk)
    spool.histogram(label: "h", bounds: [1, 2, 3]).record(2)
    let bytes = try #require(disk.contents(Self.live0))
    func word(_ offset: Int) -> UInt64 {
      bytes.withUnsafeBytes {
        UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      }
    }
    func half(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    #expect(word(0) == MetricsLiveFormat.magic)
    #expect(half(MetricsLiveFormat.versionOffset) == MetricsLiveFormat.version)
    #expect(Int(half(MetricsLiveFormat.headerSizeOffset)) == MetricsLiveFormat.headerSize)
    #expect(bytes[MetricsLiveFormat.extentIndexOffset] == 0)
    #expect(word(MetricsLiveFormat.extentSizeOffset) == UInt64(bytes.count))
    #expect(
      Array(bytes[MetricsLiveFormat.bootOffset..<(MetricsLiveFormat.bootOffset + 16)])
        == Support.bootA)
    let record = MetricsLiveFormat.headerSize
    // 16 header bytes, 10 cells, a 33-byte identity: three cache lines.
    #expect(word(MetricsLiveFormat.usedOffset) == UInt64(record + 192))
    #expect(bytes[record + MetricsLiveFormat.recordKindOffset] == MetricKind.histogram.rawValue)
    let cells = Int(half(record + MetricsLiveFormat.recordCellCountOffset))
    #expect(cells == MetricsLiveFormat.cellCount(kind: .histogram, boundCount: 3))
    let bucket =
      record + MetricsLiveFormat.recordHeaderSize
      + 8 * (MetricsLiveFormat.histogramFirstBucketCell + 1)
    #expect(word(bucket) == 1)
    try spool.close()
  }
}
