@_spi(Formats) public import StoicStore

/// The binary encoding of a span record, a span's start (``SpanStart``) or its end
/// (``SpanEnd``): one journal payload per record.
///
/// ## Layout (version 1)
///
/// Little-endian. The first 44 bytes are fixed and the same for both kinds of record, so that
/// a reader can tell a start from an end, find its span and its time without decoding the rest.
///
/// | offset | field | bytes |
/// | --- | --- | --- |
/// | 0 (``versionOffset``) | format version (``version``) | 1 |
/// | 1 (``recordKindOffset``) | ``recordKindStart`` or ``recordKindEnd`` | 1 |
/// | 2 (``timeOffset``) | a start's start time, an end's end time: nanoseconds since 1970 (signed) | 8 |
/// | 10 (``traceIDOffset``) | trace id: its high, then its low half, each a `UInt64` | 16 |
/// | 26 (``spanIDOffset``) | span id, a `UInt64` | 8 |
/// | 34 (``parentSpanIDOffset``) | parent span id, a `UInt64` (0: a root span) | 8 |
/// | 42 (``traceFlagsOffset``) | W3C trace flags | 1 |
/// | 43 (``spanKindOffset``) | span kind, numbered as OTLP's | 1 |
/// | 44 (``headerSize``) | a start: name, trace state (strings) | … |
/// | 44 (``headerSize``) | an end: start time (`Int64`), status code (1 byte), unfinished (1 byte, 0 or 1), name, trace state, status message (strings), attributes (map), dropped attributes (varint), events, dropped events (varint), links, dropped links (varint) | … |
///
/// - *varint*, *string*: as in ``LogRecordFormat``.
/// - *map*: a varint entry count, then each entry as a key (string) and a value; keys unique.
/// - *value*: a kind byte, then: ``kindString`` a string; ``kindBool`` one byte, 0 or 1;
///   ``kindInt`` an `Int64`; ``kindDouble`` a `Double`'s bits; ``kindArray`` a varint count
///   and that many values, nested at most ``maximumDepth`` deep (a deeper array is written
///   as its description, a string).
/// - *events*: a varint count, then each event as its time (`Int64`), name (string),
///   attributes (map) and dropped attributes (varint).
/// - *links*: a varint count, then each link as its trace id (16 bytes as above), span id
///   (`UInt64`), trace flags (1 byte), trace state (string), attributes (map) and dropped
///   attributes (varint).
///
/// The record ends exactly after its last field; a byte more is an error. Decoding checks every
/// length against the bytes left and throws a ``LogRecordDecodingError`` naming the offset
/// (never traps); a record of a newer version is refused as
/// ``LogRecordDecodingError/newerVersion(_:)`` before anything after the header is read.
public enum SpanRecordFormat {
  /// The version this build writes (and the highest it reads): 1.
  public static let version: UInt8 = 1
  /// Where the version byte is: 0.
  public static let versionOffset = 0
  /// Where the record kind byte is: 1.
  public static let recordKindOffset = 1
  /// Where the time (an `Int64`) is: 2.
  public static let timeOffset = 2
  /// Where the trace id is: 10.
  public static let traceIDOffset = 10
  /// Where the span id is: 26.
  public static let spanIDOffset = 26
  /// Where the parent span id is: 34.
  public static let parentSpanIDOffset = 34
  /// Where the trace flags are: 42.
  public static let traceFlagsOffset = 42
  /// Where the span kind is: 43.
  public static let spanKindOffset = 43
  /// The fixed header's size: 44.
  public static let headerSize = 44
  /// The record kind of a span's start: 1.
  public static let recordKindStart: UInt8 = 1
  /// The record kind of a span's end: 2.
  public static let recordKindEnd: UInt8 = 2
  /// The deepest nesting of arrays an attribute value may have: 8.
  public static let maximumDepth = 8

  /// A value's kind byte: a string.
  public static let kindString: UInt8 = 0
  /// A value's kind byte: a boolean.
  public static let kindBool: UInt8 = 1
  /// A value's kind byte: an `Int64`.
  public static let kindInt: UInt8 = 2
  /// A value's kind byte: a `Double`.
  public static let kindDouble: UInt8 = 3
  /// A value's kind byte: an array.
  public static let kindArray: UInt8 = 4

  // MARK: - Encoding

  /// The bytes `start` encodes to.
  public static func encode(_ start: SpanStart) -> [UInt8] {
    var writer = ByteWriter<[UInt8]>()
    write(start, to: &writer)
    return writer.bytes
  }

  /// The bytes `end` encodes to.
  public static func encode(_ end: SpanEnd) -> [UInt8] {
    var writer = ByteWriter<[UInt8]>()
    write(end, to: &writer)
    return writer.bytes
  }

  /// The most bytes of a record the span path encodes on the stack before copying it into
  /// the journal: 1 KiB (what the standard library always allocates on the stack).
  static let scratchSize = 1024

  /// The exact size of `start`'s encoding, counted without writing it.
  static func encodedSize(_ start: SpanStart) -> Int {
    var counter = ByteWriter(into: ByteCount())
    write(start, to: &counter)
    return counter.bytes.written
  }

  /// The exact size of `end`'s encoding, counted without writing it.
  static func encodedSize(_ end: SpanEnd) -> Int {
    var counter = ByteWriter(into: ByteCount())
    write(end, to: &counter)
    return counter.bytes.written
  }

  /// Writes `start` (the same code sizes it and encodes it).
  static func write(_ start: SpanStart, to writer: inout ByteWriter<some ByteWriterOutput>) {
    header(recordKindStart, time: start.startTimeNanoseconds, of: start, to: &writer)
    writer.varintText(start.name)
    writer.varintText(start.traceState)
  }

  /// Writes `end` (the same code sizes it and encodes it).
  static func write(_ end: SpanEnd, to writer: inout ByteWriter<some ByteWriterOutput>) {
    header(recordKindEnd, time: end.endTimeNanoseconds, of: end.start, to: &writer)
    writer.i64(end.start.startTimeNanoseconds)
    writer.u8(end.status.code.rawValue)
    writer.u8(end.isUnfinished ? 1 : 0)
    writer.varintText(end.start.name)
    writer.varintText(end.start.traceState)
    writer.varintText(end.status.message)
    attributes(end.attributeStorage.pairs, to: &writer)
    writer.varint(UInt64(end.droppedAttributesCount))
    writer.varint(UInt64(end.events.count))
    for event in end.events {
      writer.i64(event.timeNanoseconds)
      writer.varintText(event.name)
      attributes(event.attributes, to: &writer)
      writer.varint(UInt64(event.droppedAttributesCount))
    }
    writer.varint(UInt64(end.droppedEventsCount))
    writer.varint(UInt64(end.links.count))
    for link in end.links {
      writer.u64(link.traceID.high)
      writer.u64(link.traceID.low)
      writer.u64(link.spanID.value)
      writer.u8(link.traceFlags)
      writer.varintText(link.traceState)
      attributes(link.attributes, to: &writer)
      writer.varint(UInt64(link.droppedAttributesCount))
    }
    writer.varint(UInt64(end.droppedLinksCount))
  }

  private static func header(
    _ kind: UInt8, time: Int64, of start: SpanStart,
    to writer: inout ByteWriter<some ByteWriterOutput>
  ) {
    writer.u8(version)
    writer.u8(kind)
    writer.i64(time)
    writer.u64(start.traceID.high)
    writer.u64(start.traceID.low)
    writer.u64(start.spanID.value)
    writer.u64(start.parentSpanID.value)
    writer.u8(start.traceFlags)
    writer.u8(start.kind.rawValue)
  }

  /// A map of attributes. An array nested deeper than ``maximumDepth`` is written as its
  /// description (a string), so the record stays readable.
  ///
  /// The pairs are an existential, not a generic parameter: the function is specialized for
  /// the writer alone, so a tracer's own pairs are walked by the same specialized code as a
  /// dictionary (a generic parameter opened from the end's storage left the whole walk
  /// unspecialized, looking up generic metadata at every value).
  private static func attributes(
    _ attributes: any SpanAttributePairs, to writer: inout ByteWriter<some ByteWriterOutput>
  ) {
    writer.varint(UInt64(attributes.pairCount))
    attributes.forEachPair { key, value in
      writer.varintText(key)
      self.value(value, depth: 1, to: &writer)
    }
  }

  private static func value(
    _ value: SpanAttributeValue, depth: Int, to writer: inout ByteWriter<some ByteWriterOutput>
  ) {
    switch value {
    case .string(let text):
      writer.u8(kindString)
      writer.varintText(text)
    case .bool(let flag):
      writer.u8(kindBool)
      writer.u8(flag ? 1 : 0)
    case .int(let number):
      writer.u8(kindInt)
      writer.i64(number)
    case .double(let number):
      writer.u8(kindDouble)
      writer.double(number)
    case .array(let values):
      guard depth < maximumDepth else {
        writer.u8(kindString)
        writer.varintText(String(describing: values))
        return
      }
      writer.u8(kindArray)
      writer.varint(UInt64(values.count))
      for element in values { self.value(element, depth: depth + 1, to: &writer) }
    }
  }

  // MARK: - Decoding

  /// The span a record belongs to and its time, read from the fixed header of any version
  /// (`nil` when fewer than ``headerSize`` bytes are given).
  public static func header(of bytes: UnsafeRawBufferPointer)
    -> (recordKind: UInt8, timeNanoseconds: Int64, traceID: TraceID, spanID: SpanID)?
  {
    guard bytes.count >= headerSize else { return nil }
    var reader = ByteReader(bytes, at: recordKindOffset)
    guard let kind = reader.u8(), let time = reader.i64(), let high = reader.u64(),
      let low = reader.u64(), let span = reader.u64()
    else { return nil }
    return (kind, time, TraceID(high: high, low: low), SpanID(span))
  }

  /// Decodes an encoded record.
  ///
  /// - Throws: ``LogRecordDecodingError`` for anything that does not check; never traps.
  public static func decode(_ bytes: [UInt8]) throws(LogRecordDecodingError) -> SpanRecord {
    let outcome = bytes.withUnsafeBytes { buffer in
      Result(catching: { () throws(LogRecordDecodingError) in try decode(buffer) })
    }
    return try outcome.get()
  }

  /// Decodes an encoded record from borrowed bytes.
  ///
  /// - Throws: ``LogRecordDecodingError`` for anything that does not check; never traps.
  public static func decode(_ bytes: UnsafeRawBufferPointer) throws(LogRecordDecodingError)
    -> SpanRecord
  {
    guard let first = bytes.first else { throw .empty }
    if first > version { throw .newerVersion(first) }
    if first < version { throw .unknownVersion(first) }
    var reader = ByteReader(bytes, at: recordKindOffset)
    let recordKind = try reader.byte()
    let time = try reader.int64()
    let traceID = TraceID(high: try reader.uint64(), low: try reader.uint64())
    let spanID = SpanID(try reader.uint64())
    let parent = SpanID(try reader.uint64())
    let flags = try reader.byte()
    let kindOffset = reader.offset
    guard let kind = SpanStart.Kind(rawValue: try reader.byte()) else {
      throw .unknownValueKind(bytes[kindOffset], offset: kindOffset)
    }
    var start = SpanStart(
      traceID: traceID, spanID: spanID, parentSpanID: parent, traceFlags: flags, kind: kind,
      name: "", startTimeNanoseconds: time)
    let record: SpanRecord
    switch recordKind {
    case recordKindStart:
      start.name = try reader.string()
      start.traceState = try reader.string()
      record = .start(start)
    case recordKindEnd:
      start.startTimeNanoseconds = try reader.int64()
      let codeOffset = reader.offset
      guard let code = SpanEnd.Status.Code(rawValue: try reader.byte()) else {
        throw .unknownValueKind(bytes[codeOffset], offset: codeOffset)
      }
      let unfinishedOffset = reader.offset
      let unfinished = try reader.byte()
      guard unfinished <= 1 else { throw .unknownValueKind(unfinished, offset: unfinishedOffset) }
      start.name = try reader.string()
      start.traceState = try reader.string()
      let message = try reader.string()
      var end = SpanEnd(
        start: start, endTimeNanoseconds: time,
        status: SpanEnd.Status(code: code, message: message),
        isUnfinished: unfinished == 1)
      end.attributes = try reader.spanAttributes()
      end.droppedAttributesCount = try reader.count32()
      for _ in 0..<(try reader.count()) {
        let eventTime = try reader.int64()
        let name = try reader.string()
        let attributes = try reader.spanAttributes()
        end.events.append(
          SpanEnd.Event(
            name: name, timeNanoseconds: eventTime, attributes: attributes,
            droppedAttributesCount: try reader.count32()))
      }
      end.droppedEventsCount = try reader.count32()
      for _ in 0..<(try reader.count()) {
        let linkTrace = TraceID(high: try reader.uint64(), low: try reader.uint64())
        let linkSpan = SpanID(try reader.uint64())
        let linkFlags = try reader.byte()
        let state = try reader.string()
        let attributes = try reader.spanAttributes()
        end.links.append(
          SpanEnd.Link(
            traceID: linkTrace, spanID: linkSpan, traceState: state, traceFlags: linkFlags,
            attributes: attributes, droppedAttributesCount: try reader.count32()))
      }
      end.droppedLinksCount = try reader.count32()
      record = .end(end)
    default:
      throw .unknownValueKind(recordKind, offset: recordKindOffset)
    }
    guard reader.offset == bytes.count else { throw .trailingBytes(offset: reader.offset) }
    return record
  }
}

/// A decoded span record: a span's start or its end.
public enum SpanRecord: Sendable, Hashable {
  /// A span's start.
  case start(SpanStart)
  /// A span's end (the whole span).
  case end(SpanEnd)

  /// The span's start (an end's own).
  public var start: SpanStart {
    switch self {
    case .start(let start): start
    case .end(let end): end.start
    }
  }
}

extension SpanRecordFormat: SpoolRecordFormat {
  /// `"span"`.
  public static var recordKind: String { "span" }

  /// The time in the record's header: a start's start time, an end's end time.
  public static func timeNanoseconds(of record: UnsafeRawBufferPointer) -> Int64? {
    header(of: record)?.timeNanoseconds
  }

  /// Writes nothing: the span spool's events are passed on to its sink (the telemetry spool
  /// gives it the log spool's, which writes them as log records).
  public static func write(event: StoreEvent, into spool: RecordSpool<SpanRecordFormat>) {}
}

/// A ``ByteWriterOutput`` that only counts: the writer run over it sizes a record with the
/// code that encodes it.
struct ByteCount: ByteWriterOutput {
  var written = 0
  mutating func write(_ byte: UInt8) { written += 1 }
  mutating func write(_ bytes: UnsafeRawBufferPointer) { written += bytes.count }
}

/// The span format's reads, checked as the log format's are.
extension ByteReader {
  mutating func int64() throws(LogRecordDecodingError) -> Int64 {
    guard let value = i64() else { throw .truncated(offset: offset) }
    return value
  }

  mutating func uint64() throws(LogRecordDecodingError) -> UInt64 {
    guard let value = u64() else { throw .truncated(offset: offset) }
    return value
  }

  /// A varint count that fits a `UInt32` (a dropped count).
  mutating func count32() throws(LogRecordDecodingError) -> UInt32 {
    let start = offset
    guard let value = UInt32(exactly: try varint()) else { throw .malformedVarint(offset: start) }
    return value
  }

  mutating func spanAttributes() throws(LogRecordDecodingError) -> SpanRecordAttributes {
    let count = try count()
    var map = SpanRecordAttributes(minimumCapacity: min(count, 64))
    for _ in 0..<count {
      let keyOffset = offset
      let key = try string()
      let value = try spanValue(depth: 1)
      guard map.updateValue(value, forKey: key) == nil else {
        throw .duplicateKey(offset: keyOffset)
      }
    }
    return map
  }

  mutating func spanValue(depth: Int) throws(LogRecordDecodingError) -> SpanAttributeValue {
    let start = offset
    let kind = try byte()
    switch kind {
    case SpanRecordFormat.kindString:
      return .string(try string())
    case SpanRecordFormat.kindBool:
      let flag = try byte()
      guard flag <= 1 else { throw .unknownValueKind(flag, offset: start + 1) }
      return .bool(flag == 1)
    case SpanRecordFormat.kindInt:
      return .int(try int64())
    case SpanRecordFormat.kindDouble:
      return .double(Double(bitPattern: try uint64()))
    case SpanRecordFormat.kindArray:
      guard depth < SpanRecordFormat.maximumDepth else { throw .nestedTooDeep(offset: start) }
      let count = try count()
      var values: [SpanAttributeValue] = []
      values.reserveCapacity(min(count, 64))
      for _ in 0..<count { values.append(try spanValue(depth: depth + 1)) }
      return .array(values)
    default:
      throw .unknownValueKind(kind, offset: start)
    }
  }
}
