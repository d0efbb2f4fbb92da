import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The span spool: starts and ends written and read back; the spans a crash cut short ended
/// once, as unfinished, at the last record's time; the spans open at a close ended then; the
/// start of a span still open carried past the forwarder's drop.
@Suite("SpanSpool: starts, ends, unfinished spans")
struct SpanSpoolTests {
  /// The deterministic options of the simulated disk, spans asked for.
  static func options() -> TelemetryOptions {
    var options = SpoolTestSupport.options()
    options.spans = options.logs
    return options
  }

  static func start(_ number: UInt64, parent: UInt64 = 0, at time: Int64) -> SpanStart {
    SpanStart(
      traceID: TraceID(high: 7, low: 7), spanID: SpanID(number), parentSpanID: SpanID(parent),
      name: "span \(number)", startTimeNanoseconds: time)
  }

  /// The spool's ends, in order.
  static func ends(_ spans: SpanSpool) throws -> [SpanEnd] {
    var ends: [SpanEnd] = []
    try spans.forEachSpanRecord { (_, record) throws(StoreError) in
      if case .success(.end(let end)) = record { ends.append(end) }
    }
    return ends
  }

  @Test("without spans asked for and none on disk, a spool has no span spool and no spans/")
  func noSpansByDefault() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    #expect(spool.spans == nil)
    try spool.close()
    #expect(!disk.allDirectories().contains { $0.hasSuffix("/spans") })
  }

  @Test("a start and an end are read back decoded, in order")
  func startAndEnd() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    let start = Self.start(1, at: 100)
    #expect(spans.start(start) == 1)
    let end = SpanEnd(
      start: start, endTimeNanoseconds: 200, attributes: ["k": .int(1)],
      status: SpanEnd.Status(code: .ok))
    #expect(spans.end(end) == 2)
    var records: [SpanRecord] = []
    try spans.forEachSpanRecord { (_, record) throws(StoreError) in
      if case .success(let decoded) = record { records.append(decoded) }
    }
    #expect(records == [.start(start), .end(end)])
    try spool.close()
  }

  @Test(
    "an end around the stack scratch's size is stored as the format encodes it, whichever way",
    arguments: [900, 1023, 1024, 1025, 4000])
  func endAroundTheScratchSize(recordBytes: Int) throws {
    let start = Self.start(1, at: 100)
    func end(_ valueBytes: Int) -> SpanEnd {
      SpanEnd(
        start: start, endTimeNanoseconds: 200,
        attributes: ["k": .string(String(repeating: "v", count: valueBytes))],
        status: SpanEnd.Status(code: .ok))
    }
    // The first value length whose end encodes to at least `recordBytes` (exactly, but where
    // the value's varint length grows by a byte).
    var valueBytes = 0
    while SpanRecordFormat.encodedSize(end(valueBytes)) < recordBytes { valueBytes += 1 }
    let expected = end(valueBytes)
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    let sequence = try #require(spans.end(expected))
    var stored: [UInt8] = []
    try spans.forEachEncodedRecord(from: sequence, through: sequence) {
      (_, bytes) throws(StoreError) in stored = Array(bytes)
    }
    #expect(stored == SpanRecordFormat.encode(expected))
    #expect(try Self.ends(spans) == [expected])
    try spool.close()
  }

  @Test("a crash cuts two spans short: the next open ends each once, at the last record's time")
  func crashedSpansAreEndedOnce() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    spans.start(Self.start(1, at: 100))
    spans.start(Self.start(2, parent: 1, at: 150))
    spans.start(Self.start(3, parent: 1, at: 160))
    spans.end(SpanEnd(start: Self.start(3, parent: 1, at: 160), endTimeNanoseconds: 300))
    // A process crash: the kernel kept every write; the spool was never closed.
    let crashed = disk.copy()
    _ = spool
    let reopened = try SpoolTestSupport.open(crashed, options: Self.options())
    #expect(reopened.spansEndedAtOpen == 2)
    let ends = try Self.ends(try #require(reopened.spans))
    #expect(ends.map(\.start.spanID.value) == [3, 1, 2])
    let unfinished = ends.filter(\.isUnfinished)
    #expect(unfinished.map(\.endTimeNanoseconds) == [300, 300])
    #expect(unfinished.allSatisfy { $0.status.code == .error })
    #expect(unfinished.last?.start.parentSpanID == SpanID(1))
    #expect(
      unfinished.allSatisfy { $0.attributes[SpanEnd.unfinishedAttribute] == .bool(true) })
    // The event went into the log spool.
    try reopened.flush()
    #expect(
      try SpoolTestSupport.records(reopened).contains {
        $0.message == SpoolEvents.unfinishedSpansEnded.name
      })
    try reopened.close()
    // Opened again (spans not asked for: the spool has them), nothing is ended twice.
    let again = try SpoolTestSupport.open(crashed, options: SpoolTestSupport.options())
    #expect(again.spansEndedAtOpen == 0)
    #expect(try Self.ends(try #require(again.spans)).count == 3)
    try again.close()
  }

  @Test("a close ends the spans still open, at the close's time; a reopen ends none")
  func closeEndsOpenSpans() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let before = WallClock.nanoseconds()
    try #require(spool.spans).start(Self.start(1, at: 100))
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk, options: Self.options())
    #expect(reopened.spansEndedAtOpen == 0)
    let ends = try Self.ends(try #require(reopened.spans))
    #expect(ends.count == 1)
    #expect(ends.first?.isUnfinished == true)
    #expect((ends.first?.endTimeNanoseconds ?? 0) >= before)
    try reopened.close()
  }

  @Test("a close reads the spans this process wrote, not the spans earlier processes left")
  func closeReadsOnlyWhatThisProcessWrote() throws {
    let disk = SimulatedFileSystem()
    var options = Self.options()
    // Small segments, as a spool's are small against what it holds: a read skips whole
    // segments that end before where it starts.
    options.spans?.segmentSize = 16 << 10
    let earlier = try SpoolTestSupport.open(disk, options: options)
    let earlierSpans = try #require(earlier.spans)
    for number in 1...10_000 as ClosedRange<UInt64> {
      let start = Self.start(number, at: Int64(number))
      earlierSpans.start(start)
      earlierSpans.end(SpanEnd(start: start, endTimeNanoseconds: Int64(number) + 1))
    }
    try earlier.close()
    let left = disk.allPaths().filter { $0.contains("/spans/") }.reduce(0) {
      $0 + (disk.contents($1)?.count ?? 0)
    }
    let metered = MeteredFileSystem(disk)
    let spool = try SpoolTestSupport.open(metered, options: options)
    let open = Self.start(20_000, at: 20_000)
    try #require(spool.spans).start(open)
    _ = metered.reset()
    try spool.close()
    let read = metered.counts.bytesRead
    // At most the segment this process began in (and its one start), of all the earlier ones.
    #expect(read <= 16 << 10, "the close read \(read) bytes of \(left) left earlier")
    let reopened = try SpoolTestSupport.open(disk, options: options)
    let ends = try Self.ends(try #require(reopened.spans)).filter(\.isUnfinished)
    #expect(ends.map(\.start.spanID) == [open.spanID])
    try reopened.close()
  }

  @Test("the drop of what was sent carries an open span's start past it: a crash still ends it")
  func dropCarriesOpenStarts() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    spans.start(Self.start(1, at: 100))
    spans.start(Self.start(2, at: 110))
    let sent = try #require(
      spans.end(SpanEnd(start: Self.start(2, at: 110), endTimeNanoseconds: 120)))
    try spans.dropEndedThrough(sent)
    #expect(spans.lowWaterMark == sent)
    var starts: [SpanStart] = []
    try spans.forEachSpanRecord { (_, record) throws(StoreError) in
      if case .success(.start(let start)) = record { starts.append(start) }
    }
    #expect(starts == [Self.start(1, at: 100)])
    let crashed = disk.copy()
    let reopened = try SpoolTestSupport.open(crashed, options: Self.options())
    #expect(reopened.spansEndedAtOpen == 1)
    #expect(try Self.ends(try #require(reopened.spans)).map(\.start.spanID) == [SpanID(1)])
    try reopened.close()
  }

  @Test("the drop carries neither a start whose end came after it nor one carried already")
  func dropCarriesOnlyWhatIsStillOpen() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    spans.start(Self.start(1, at: 100))  // ends after the first drop's point
    spans.start(Self.start(2, at: 105))  // stays open: carried once
    let first = try #require(
      spans.end(SpanEnd(start: Self.start(3, at: 110), endTimeNanoseconds: 120)))
    spans.end(SpanEnd(start: Self.start(1, at: 100), endTimeNanoseconds: 130))
    #expect(try spans.startsToCarry(through: first) == [Self.start(2, at: 105)])
    try spans.dropEndedThrough(first)
    // A crash between a carry and its drop leaves the old start and its copy: the copy past
    // the drop's point settles it.
    let copied = try #require(spans.start(Self.start(2, at: 105)))
    #expect(try spans.startsToCarry(through: copied - 1).isEmpty)
    var starts = 0
    try spans.forEachSpanRecord { (_, record) throws(StoreError) in
      if case .success(.start) = record { starts += 1 }
    }
    #expect(starts == 2)
    try spool.close()
  }

  @Test("without the carry, the drop would lose the open span: the control loses it")
  func dropWithoutCarryLosesTheSpan() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk, options: Self.options())
    let spans = try #require(spool.spans)
    spans.start(Self.start(1, at: 100))
    let sent = try #require(
      spans.end(SpanEnd(start: Self.start(2, at: 110), endTimeNanoseconds: 120)))
    try spans.dropThrough(sent)
    let reopened = try SpoolTestSupport.open(disk.copy(), options: Self.options())
    #expect(reopened.spansEndedAtOpen == 0)
    try reopened.close()
  }
}
