import StoicStore
import Testing

@testable import StoicTelemetry

/// The span record's binary encoding: round trips of a start and of an end with every kind of
/// attribute, event and link; the fixed header at its named offsets; sizes counted by the code
/// that encodes; and a decoder that refuses hostile bytes with a typed error.
@Suite("SpanRecordFormat: encoding, decoding, hostile bytes")
struct SpanRecordFormatTests {
  static let start = SpanStart(
    traceID: TraceID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210),
    spanID: SpanID(0x1122_3344_5566_7788), parentSpanID: SpanID(0x99AA_BBCC_DDEE_FF00),
    traceFlags: 1, traceState: "vendor=value,other=1", kind: .server, name: "GET /users/{id}",
    startTimeNanoseconds: 1_767_225_600_123_456_789)

  static let end = SpanEnd(
    start: start, endTimeNanoseconds: 1_767_225_600_223_456_789,
    attributes: [
      "http.request.method": .string("GET"), "http.response.status_code": .int(200),
      "sampled": .bool(true), "ratio": .double(0.25), "ünïcödé 键": .string("值 👩‍👩‍👧"),
      "list": .array([.int(-1), .string(""), .array([.bool(false)])]), "": .string(""),
    ],
    droppedAttributesCount: 3,
    events: [
      SpanEnd.Event(
        name: "exception", timeNanoseconds: 1_767_225_600_200_000_000,
        attributes: ["exception.type": .string("IOError")], droppedAttributesCount: 1),
      SpanEnd.Event(name: "retry", timeNanoseconds: -5),
    ],
    droppedEventsCount: 2,
    links: [
      SpanEnd.Link(
        traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), traceState: "a=b", traceFlags: 0,
        attributes: ["reason": .string("batch")], droppedAttributesCount: 4)
    ],
    droppedLinksCount: 5, status: SpanEnd.Status(code: .error, message: "boom"))

  @Test("a start and an end with every attribute kind, events and links survive a round trip")
  func roundTrip() throws {
    #expect(try SpanRecordFormat.decode(SpanRecordFormat.encode(Self.start)) == .start(Self.start))
    #expect(try SpanRecordFormat.decode(SpanRecordFormat.encode(Self.end)) == .end(Self.end))
    let unfinished = SpanEnd.unfinished(Self.start, at: 5)
    #expect(
      try SpanRecordFormat.decode(SpanRecordFormat.encode(unfinished)) == .end(unfinished))
    #expect(unfinished.endTimeNanoseconds == Self.start.startTimeNanoseconds)
    #expect(unfinished.status.code == .error)
    #expect(unfinished.attributes[SpanEnd.unfinishedAttribute] == .bool(true))
  }

  @Test("the size is counted by the code that encodes")
  func sizes() {
    #expect(SpanRecordFormat.encodedSize(Self.start) == SpanRecordFormat.encode(Self.start).count)
    #expect(SpanRecordFormat.encodedSize(Self.end) == SpanRecordFormat.encode(Self.end).count)
  }

  /// Attribute pairs that count how often they are walked, in an order of their own.
  struct CountingPairs: SpanAttributePairs, Sendable {
    let pairs: [(String, SpanAttributeValue)]
    let walks = SleepingLock(0)
    var pairCount: Int { pairs.count }
    func forEachPair(_ body: (String, SpanAttributeValue) -> Void) {
      walks.withLock { $0 += 1 }
      for (key, value) in pairs { body(key, value) }
    }
  }

  /// ``end`` with its attributes given as `pairs`.
  static func end(with pairs: CountingPairs) -> SpanEnd {
    SpanEnd(
      start: end.start, endTimeNanoseconds: end.endTimeNanoseconds, attributePairs: pairs,
      droppedAttributesCount: end.droppedAttributesCount, events: end.events,
      droppedEventsCount: end.droppedEventsCount, links: end.links,
      droppedLinksCount: end.droppedLinksCount, status: end.status)
  }

  @Test(
    "an end made with attribute pairs encodes as the same end made with their dictionary, walked in place, equal and hashed alike"
  )
  func attributePairs() throws {
    let dictionary = Self.end.attributes
    let pairs = CountingPairs(
      pairs: dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    let walked = Self.end(with: pairs)
    #expect(walked == Self.end && walked.hashValue == Self.end.hashValue)
    #expect(walked.attributes == dictionary)
    // The spool sizes and encodes the pairs where they are: two walks, no dictionary.
    let walksBefore = pairs.walks.withLock { $0 }
    let size = SpanRecordFormat.encodedSize(walked)
    let bytes = SpanRecordFormat.encode(walked)
    #expect(pairs.walks.withLock { $0 } == walksBefore + 2)
    #expect(size == bytes.count)
    // Decoded, it is the dictionary's end (the attributes' order on disk is the pairs').
    #expect(try SpanRecordFormat.decode(bytes) == .end(Self.end))
    // Written in the dictionary's order, the bytes are the dictionary's, byte for byte.
    let same = CountingPairs(pairs: dictionary.map { ($0.key, $0.value) })
    let inOrder = Self.end(with: same)
    #expect(SpanRecordFormat.encode(inOrder) == SpanRecordFormat.encode(Self.end))
  }

  @Test("the fixed header is at its named offsets, for a start and an end")
  func header() throws {
    let bytes = SpanRecordFormat.encode(Self.start)
    #expect(bytes[SpanRecordFormat.versionOffset] == 1)
    #expect(bytes[SpanRecordFormat.recordKindOffset] == SpanRecordFormat.recordKindStart)
    #expect(
      Array(bytes[SpanRecordFormat.timeOffset..<SpanRecordFormat.traceIDOffset])
        == littleEndian(UInt64(bitPattern: Self.start.startTimeNanoseconds)))
    #expect(
      Array(bytes[SpanRecordFormat.traceIDOffset..<SpanRecordFormat.spanIDOffset])
        == littleEndian(Self.start.traceID.high) + littleEndian(Self.start.traceID.low))
    #expect(
      Array(bytes[SpanRecordFormat.spanIDOffset..<SpanRecordFormat.parentSpanIDOffset])
        == littleEndian(Self.start.spanID.value))
    #expect(
      Array(bytes[SpanRecordFormat.parentSpanIDOffset..<SpanRecordFormat.traceFlagsOffset])
        == littleEndian(Self.start.parentSpanID.value))
    #expect(bytes[SpanRecordFormat.traceFlagsOffset] == 1)
    #expect(bytes[SpanRecordFormat.spanKindOffset] == SpanStart.Kind.server.rawValue)
    // The name follows the header: its length, then its bytes.
    #expect(Int(bytes[SpanRecordFormat.headerSize]) == Self.start.name.utf8.count)
    let end = SpanRecordFormat.encode(Self.end)
    #expect(end[SpanRecordFormat.recordKindOffset] == SpanRecordFormat.recordKindEnd)
    let header = try #require(end.withUnsafeBytes { SpanRecordFormat.header(of: $0) })
    #expect(header.timeNanoseconds == Self.end.endTimeNanoseconds)
    #expect(header.traceID == Self.start.traceID && header.spanID == Self.start.spanID)
  }

  @Test(
    "every truncation, a byte more, a newer version and unknown kinds are refused, never a trap")
  func hostileBytes() {
    for record in [SpanRecordFormat.encode(Self.start), SpanRecordFormat.encode(Self.end)] {
      for length in 0..<record.count {
        #expect(throws: LogRecordDecodingError.self) {
          try SpanRecordFormat.decode(Array(record[..<length]))
        }
      }
      #expect(throws: LogRecordDecodingError.trailingBytes(offset: record.count)) {
        try SpanRecordFormat.decode(record + [0])
      }
      var newer = record
      newer[SpanRecordFormat.versionOffset] = 2
      #expect(throws: LogRecordDecodingError.newerVersion(2)) {
        try SpanRecordFormat.decode(newer)
      }
      var kind = record
      kind[SpanRecordFormat.recordKindOffset] = 9
      #expect(throws: LogRecordDecodingError.self) { try SpanRecordFormat.decode(kind) }
      var spanKind = record
      spanKind[SpanRecordFormat.spanKindOffset] = 6
      #expect(throws: LogRecordDecodingError.self) { try SpanRecordFormat.decode(spanKind) }
    }
    // Every single byte flipped decodes or throws; none traps.
    let end = SpanRecordFormat.encode(Self.end)
    for index in end.indices {
      var flipped = end
      flipped[index] ^= 0xFF
      _ = try? SpanRecordFormat.decode(flipped)
    }
  }

  @Test("trace and span ids: hexadecimal both ways, invalid ids refused, random ids valid")
  func identifiers() {
    let trace = TraceID(hex: "0af7651916cd43dd8448eb211c80319c")
    #expect(trace?.description == "0af7651916cd43dd8448eb211c80319c")
    #expect(TraceID(hex: "0AF7651916CD43DD8448EB211C80319C") == trace)
    #expect(TraceID(hex: "0af7651916cd43dd8448eb211c80319") == nil)
    #expect(TraceID(hex: "0af7651916cd43dd8448eb211c80319g") == nil)
    #expect(TraceID(hex: "00000000000000000000000000000000")?.isValid == false)
    #expect(SpanID(hex: "b7ad6b7169203331")?.description == "b7ad6b7169203331")
    #expect(SpanID(hex: "b7ad6b716920333") == nil)
    #expect(
      SpanID(hex: "b7ad6b7169203331")?.bytes == [0xB7, 0xAD, 0x6B, 0x71, 0x69, 0x20, 0x33, 0x31])
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<100 {
      #expect(TraceID.random(using: &generator).isValid)
      #expect(SpanID.random(using: &generator).isValid)
    }
  }

  func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
  }
}
