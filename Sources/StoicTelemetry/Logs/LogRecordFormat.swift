@_spi(Formats) import StoicStore

/// The binary encoding of a log record: one journal payload per record.
///
/// ## Layout (version 1)
///
/// Little-endian. The first ten bytes are fixed, so that a reader (the forwarder, a query) can
/// filter by level and time without decoding the rest; every later version keeps them where
/// they are, so a record a newer build wrote can be filtered too.
///
/// | offset | field | bytes |
/// | --- | --- | --- |
/// | 0 (``versionOffset``) | format version (``version``) | 1 |
/// | 1 (``levelOffset``) | level: `LogLevel.rawValue`, 0 `trace` … 6 `critical` | 1 |
/// | 2 (``timeOffset``) | wall-clock time, nanoseconds since 1970 (signed) | 8 |
/// | 10 (``headerSize``) | label, message (strings), metadata (map), source, file, function (strings), line (varint) | … |
///
/// - *varint*: unsigned LEB128 (7 bits a byte, low bits first, high bit set on every byte but
///   the last), at most 10 bytes, in its shortest form.
/// - *string*: a varint byte count, then that many bytes of UTF-8.
/// - *map*: a varint entry count, then each entry as a key (string) and a value. Keys are
///   unique.
/// - *value*: a kind byte, then: ``kindString`` a string; ``kindStringConvertible`` a string
///   (the value's description when it was logged); ``kindDictionary`` a map; ``kindArray`` a
///   varint count and that many values. Containers nest at most ``maximumDepth`` deep: a
///   deeper value is stored as its description (kind ``kindStringConvertible``).
///
/// The record ends exactly after the line; a byte more is an error.
///
/// ## Decoding
///
/// ``decode(_:sequence:)-([UInt8],_)`` checks every length against the bytes left, the nesting
/// depth, the UTF-8 of every string and the uniqueness of keys, and throws a
/// ``LogRecordDecodingError`` naming the offset: hostile bytes never make it trap, recurse without
/// bound, or reserve memory for more elements than their own bytes could hold. A record of a newer
/// version is refused with ``LogRecordDecodingError/newerVersion(_:)`` before anything after the
/// header is read: the spool keeps such records and hands them out as ``UnreadableLogRecord``s,
/// never misread. A record of an older version is read by that version's reader: a new version
/// adds its reader beside the others and removes none (a test decodes version 1 bytes spelled
/// out from the layout above).
public enum LogRecordFormat {
  /// The version this build writes (and the highest it reads): 1.
  public static let version: UInt8 = 1
  /// Where the version byte is: 0.
  public static let versionOffset = 0
  /// Where the level byte is: 1.
  public static let levelOffset = 1
  /// Where the time (a little-endian `Int64`) is: 2.
  public static let timeOffset = 2
  /// The fixed header's size (version, level, time): 10. The label starts here.
  public static let headerSize = 10
  /// The deepest nesting of dictionaries and arrays a value may have: 32.
  public static let maximumDepth = 32

  /// A value's kind byte: a string.
  public static let kindString: UInt8 = 0
  /// A value's kind byte: the description of a string-convertible value.
  public static let kindStringConvertible: UInt8 = 1
  /// A value's kind byte: a dictionary.
  public static let kindDictionary: UInt8 = 2
  /// A value's kind byte: an array.
  public static let kindArray: UInt8 = 3

  /// The longest varint: 10 bytes for a 64-bit value.
  static let maximumVarintSize = 10

  // MARK: - Encoding

  /// The bytes `record` encodes to (its ``LogRecord/sequence`` is not part of the payload: the
  /// journal numbers it).
  public static func encode(_ record: LogRecord) -> [UInt8] {
    let count = encodedSize(record.input)
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      encode(
        record.input, timeNanoseconds: record.timeNanoseconds,
        into: UnsafeMutableRawBufferPointer(buffer))
      initialized = count
    }
  }

  /// The exact size of the encoding of `record`, computed without allocating (unless a value
  /// nests deeper than ``maximumDepth`` and must be described).
  static func encodedSize(_ record: borrowing LogRecordInput) -> Int {
    switch record.metadataStorage.form {
    case .dictionary(let metadata): encodedSize(record, metadata: metadata)
    case .pairs(let pairs): encodedSize(record, metadata: pairs)
    }
  }

  /// The exact size of the encoding of `record` with `metadata` (its own, as pairs or a
  /// dictionary; never read from `record`).
  static func encodedSize(
    _ record: borrowing LogRecordInput, metadata: some LogMetadataPairs
  ) -> Int {
    encodedSize(record, encodedMetadataCount: pairsSize(metadata))
  }

  /// Encodes `record`, logged at `timeNanoseconds`, into `buffer`, which is exactly
  /// ``encodedSize(_:)`` bytes (the journal's mapped tail on the log path: no intermediate
  /// copy). Returns the bytes written: all of them, unless the buffer was too short (then the
  /// record is short, and unreadable).
  @discardableResult
  static func encode(
    _ record: borrowing LogRecordInput, timeNanoseconds: Int64,
    into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    switch record.metadataStorage.form {
    case .dictionary(let metadata):
      encode(record, metadata: metadata, timeNanoseconds: timeNanoseconds, into: buffer)
    case .pairs(let pairs):
      encode(record, metadata: pairs, timeNanoseconds: timeNanoseconds, into: buffer)
    }
  }

  /// Encodes `record` with `metadata` (its own, never read from `record`), as
  /// ``encode(_:timeNanoseconds:into:)``
  /// (the buffer exactly ``encodedSize(_:metadata:)`` bytes).
  @discardableResult
  static func encode(
    _ record: borrowing LogRecordInput, metadata: some LogMetadataPairs,
    timeNanoseconds: Int64, into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    encode(record, timeNanoseconds: timeNanoseconds, into: buffer) { $0.pairs(metadata) }
  }

  /// Encodes `record` with its metadata already encoded (`encodedMetadata`, from
  /// ``encodeMetadata(_:into:)``), as ``encode(_:metadata:timeNanoseconds:into:)`` (the buffer
  /// exactly ``encodedSize(_:encodedMetadataCount:)`` bytes): the same bytes.
  @discardableResult
  static func encode(
    _ record: borrowing LogRecordInput, encodedMetadata: UnsafeRawBufferPointer,
    timeNanoseconds: Int64, into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    encode(record, timeNanoseconds: timeNanoseconds, into: buffer) { $0.raw(encodedMetadata) }
  }

  /// The layout in order, the metadata written by `metadata`.
  private static func encode(
    _ record: borrowing LogRecordInput, timeNanoseconds: Int64,
    into buffer: UnsafeMutableRawBufferPointer, metadata: (inout Writer) -> Void
  ) -> Int {
    var writer = Writer(into: BoundedBytes(buffer))
    writer.u8(version)
    writer.u8(record.level.rawValue)
    writer.i64(timeNanoseconds)
    writer.varintText(record.label)
    writer.varintText(record.message)
    metadata(&writer)
    writer.varintText(record.source)
    writer.varintText(record.file)
    writer.varintText(record.function)
    writer.varint(UInt64(record.line))
    return writer.offset
  }

  /// The most bytes of metadata the log path encodes ahead of its record, on the stack: 1 KiB
  /// (what the standard library always allocates on the stack).
  static let metadataScratchSize = 1024

  /// Encodes `metadata` (the map of the layout: count, then each key and value) into
  /// `scratch`, so that the log path walks it once rather than twice (sizing, then encoding:
  /// each walk of a dictionary copies out every key and value). Returns the bytes written, or
  /// `nil` when they did not all fit (`scratch` is then garbage; size and encode the metadata
  /// where it is instead).
  static func encodeMetadata(
    _ metadata: some LogMetadataPairs, into scratch: UnsafeMutableRawBufferPointer
  ) -> UnsafeRawBufferPointer? {
    var writer = Writer(into: BoundedBytes(scratch))
    writer.pairs(metadata)
    // A bounded writer stops at the end: a store cut short leaves it exactly full.
    guard writer.offset < scratch.count else { return nil }
    return UnsafeRawBufferPointer(rebasing: scratch[0..<writer.offset])
  }

  /// The exact size of the encoding of `record` with metadata already encoded in
  /// `encodedMetadataCount` bytes (``encodeMetadata(_:into:)``).
  static func encodedSize(_ record: borrowing LogRecordInput, encodedMetadataCount: Int) -> Int {
    headerSize + stringSize(record.label) + stringSize(record.message) + encodedMetadataCount
      + stringSize(record.source) + stringSize(record.file) + stringSize(record.function)
      + varintSize(UInt64(record.line))
  }

  static func varintSize(_ value: UInt64) -> Int {
    var value = value
    var size = 1
    while value >= 0x80 {
      value >>= 7
      size += 1
    }
    return size
  }

  static func stringSize(_ text: String) -> Int {
    let count = text.utf8.count
    return varintSize(UInt64(count)) + count
  }

  /// The record's metadata (at depth 1), walked in place.
  static func pairsSize(_ pairs: some LogMetadataPairs) -> Int {
    var size = varintSize(UInt64(pairs.pairCount))
    pairs.forEachPair { key, value in size += stringSize(key) + valueSize(value, depth: 1) }
    return size
  }

  static func mapSize(_ map: LogMetadata, depth: Int) -> Int {
    var size = varintSize(UInt64(map.count))
    for (key, value) in map { size += stringSize(key) + valueSize(value, depth: depth) }
    return size
  }

  /// A value at `depth` (1 for a value of the record's metadata): containers deeper than
  /// ``maximumDepth`` are stored as their description.
  static func valueSize(_ value: LogMetadataValue, depth: Int) -> Int {
    switch value {
    case .string(let text), .stringConvertible(let text):
      return 1 + stringSize(text)
    case .dictionary(let map):
      guard depth <= maximumDepth else { return 1 + stringSize(value.description) }
      return 1 + mapSize(map, depth: depth + 1)
    case .array(let values):
      guard depth <= maximumDepth else { return 1 + stringSize(value.description) }
      var size = 1 + varintSize(UInt64(values.count))
      for element in values { size += valueSize(element, depth: depth + 1) }
      return size
    }
  }

  /// The ``encode(_:timeNanoseconds:into:)`` cursor: the package's one little-endian writer
  /// (`ByteWriter`) over a buffer sized exactly for what it is given (`BoundedBytes`: every
  /// store is checked against the buffer's end, a compare per field, so that were the sizing
  /// ever wrong, the record would come out short and unreadable, never written past its
  /// frame), with this format's strings, maps and values.
  typealias Writer = ByteWriter<BoundedBytes>

  // MARK: - Decoding

  /// The fixed header of an encoded record (of any version), or `nil` when fewer than
  /// ``headerSize`` bytes are given. Reads three fields; decodes nothing else.
  public static func header(of bytes: UnsafeRawBufferPointer) -> LogRecordHeader? {
    guard bytes.count >= headerSize else { return nil }
    return LogRecordHeader(
      version: bytes[versionOffset], levelRawValue: bytes[levelOffset],
      timeNanoseconds: Int64(
        littleEndian: bytes.loadUnaligned(fromByteOffset: timeOffset, as: Int64.self)))
  }

  /// The label of an encoded record of this build's ``version``, read without decoding the
  /// rest (a query's segment summary collects the labels a segment holds), or `nil` when the
  /// record is of another version or its label does not check.
  public static func label(of bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.first == version, bytes.count >= headerSize else { return nil }
    var reader = ByteReader(bytes, at: headerSize)
    return try? reader.string()
  }

  /// Decodes an encoded record, numbering it `sequence`.
  ///
  /// - Throws: ``LogRecordDecodingError`` for anything that does not check; never traps.
  public static func decode(_ bytes: [UInt8], sequence: UInt64) throws(LogRecordDecodingError)
    -> LogRecord
  {
    let outcome = bytes.withUnsafeBytes { buffer in
      Result(catching: { () throws(LogRecordDecodingError) in
        try decode(buffer, sequence: sequence)
      })
    }
    return try outcome.get()
  }

  /// Decodes an encoded record from borrowed bytes, numbering it `sequence`.
  ///
  /// - Throws: ``LogRecordDecodingError`` for anything that does not check; never traps.
  public static func decode(_ bytes: UnsafeRawBufferPointer, sequence: UInt64)
    throws(LogRecordDecodingError) -> LogRecord
  {
    guard let first = bytes.first else { throw .empty }
    if first > version { throw .newerVersion(first) }
    guard let header = header(of: bytes) else { throw .truncated(offset: bytes.count) }
    guard let level = header.level else { throw .unknownLevel(header.levelRawValue) }
    // Every version this format ever wrote has its reader here, and keeps it: a spool holds
    // records of the builds before this one.
    switch first {
    case 1:
      return LogRecord(
        sequence: sequence, timeNanoseconds: header.timeNanoseconds,
        input: try decodeVersion1(bytes, level: level))
    default:
      throw .unknownVersion(first)
    }
  }

  /// The fields after the header of a version 1 record (the layout above).
  static func decodeVersion1(_ bytes: UnsafeRawBufferPointer, level: LogLevel)
    throws(LogRecordDecodingError) -> LogRecordInput
  {
    var reader = ByteReader(bytes, at: headerSize)
    let label = try reader.string()
    let message = try reader.string()
    let metadata = try reader.map(depth: 1)
    let source = try reader.string()
    let file = try reader.string()
    let function = try reader.string()
    let lineOffset = reader.offset
    guard let line = UInt(exactly: try reader.varint()) else {
      throw .malformedVarint(offset: lineOffset)
    }
    guard reader.offset == bytes.count else { throw .trailingBytes(offset: reader.offset) }
    return LogRecordInput(
      level: level, label: label, message: message, metadata: metadata, source: source,
      file: file, function: function, line: line)
  }

  /// The fields of an encoded record of this build's ``version`` whose metadata is flat (every
  /// value a string, every key ASCII), borrowed from `bytes`; the metadata's pairs go into
  /// `metadata` (emptied first, kept by the caller from one record to the next), sorted by key.
  /// Checked as ``decode(_:sequence:)-(UnsafeRawBufferPointer,_)`` checks them (lengths,
  /// UTF-8, unique keys, nothing after the line): `nil` for a record that does not check, and
  /// for one with nested metadata or a key beyond ASCII, which a caller decodes instead.
  package static func fields(
    of bytes: UnsafeRawBufferPointer,
    metadata: inout [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)]
  ) -> LogRecordFields? {
    metadata.removeAll(keepingCapacity: true)
    guard bytes.first == version, let header = header(of: bytes), let level = header.level
    else { return nil }
    var reader = ByteReader(bytes, at: headerSize)
    do throws(LogRecordDecodingError) {
      let label = try reader.utf8()
      let message = try reader.utf8()
      let count = try reader.count()
      for _ in 0..<count {
        let key = try reader.utf8()
        guard key.isASCII else { return nil }
        let kind = try reader.byte()
        guard kind == kindString || kind == kindStringConvertible else { return nil }
        metadata.append((key, try reader.utf8()))
      }
      // ASCII keys: byte order is the order of `String`'s `<`, byte equality its `==`.
      metadata.sort { $0.key.lexicographicallyPrecedes($1.key) }
      for index in metadata.indices.dropFirst()
      where metadata[index].key.elementsEqual(metadata[index - 1].key) {
        return nil
      }
      let source = try reader.utf8()
      let file = try reader.utf8()
      let function = try reader.utf8()
      let line = try reader.varint()
      guard reader.offset == bytes.count, UInt(exactly: line) != nil else { return nil }
      return LogRecordFields(
        level: level, timeNanoseconds: header.timeNanoseconds, label: label, message: message,
        source: source, file: file, function: function, line: line)
    } catch {
      return nil
    }
  }
}

// MARK: - The format's fields on the package's byte cursor

extension ByteWriter where Output == BoundedBytes {
  /// The record's metadata (at depth 1), walked in place: a varint count, then each key and
  /// value.
  mutating func pairs(_ pairs: some LogMetadataPairs) {
    varint(UInt64(pairs.pairCount))
    pairs.forEachPair { key, value in
      varintText(key)
      self.value(value, depth: 1)
    }
  }

  /// A ``LogMetadata`` map at `depth`: a varint count, then each key and value.
  mutating func map(_ map: LogMetadata, depth: Int) {
    varint(UInt64(map.count))
    for (key, value) in map {
      varintText(key)
      self.value(value, depth: depth)
    }
  }

  /// A value: its kind byte, then its text, map or elements; a container deeper than
  /// `LogRecordFormat.maximumDepth` as its description.
  mutating func value(_ value: LogMetadataValue, depth: Int) {
    switch value {
    case .string(let text):
      u8(LogRecordFormat.kindString)
      varintText(text)
    case .stringConvertible(let text):
      u8(LogRecordFormat.kindStringConvertible)
      varintText(text)
    case .dictionary(let entries):
      guard depth <= LogRecordFormat.maximumDepth else { return described(value) }
      u8(LogRecordFormat.kindDictionary)
      map(entries, depth: depth + 1)
    case .array(let values):
      guard depth <= LogRecordFormat.maximumDepth else { return described(value) }
      u8(LogRecordFormat.kindArray)
      varint(UInt64(values.count))
      for element in values { self.value(element, depth: depth + 1) }
    }
  }

  mutating func described(_ value: LogMetadataValue) {
    u8(LogRecordFormat.kindStringConvertible)
    varintText(value.description)
  }
}

/// The format's reads, each checked against the bytes left and throwing a
/// ``LogRecordDecodingError`` that names the offset.
extension ByteReader {
  mutating func byte() throws(LogRecordDecodingError) -> UInt8 {
    guard let byte = u8() else { throw .truncated(offset: offset) }
    return byte
  }

  /// A varint in its shortest form, at most 10 bytes, fitting in 64 bits. A one-byte varint
  /// (every length under 128, most of a record's) is read here; a longer one by
  /// ``longVarint()``.
  @inline(__always)
  mutating func varint() throws(LogRecordDecodingError) -> UInt64 {
    if offset >= 0, offset < bytes.count {
      let first = bytes[offset]
      if first < 0x80 {
        offset += 1
        return UInt64(first)
      }
    }
    return try longVarint()
  }

  /// A varint of two bytes or more (or none: the bytes end first), checked as ``varint()``
  /// checks it.
  mutating func longVarint() throws(LogRecordDecodingError) -> UInt64 {
    let start = offset
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try byte()
      let bits = UInt64(byte & 0x7F)
      // The tenth byte may only carry the top bit of a 64-bit value.
      guard shift < 63 || bits <= 1 else { throw .malformedVarint(offset: start) }
      value |= bits << shift
      if byte & 0x80 == 0 {
        // A last byte of zero after others is an overlong form.
        guard byte != 0 || offset - start == 1 else { throw .malformedVarint(offset: start) }
        return value
      }
      shift += 7
      guard shift < 64 else { throw .malformedVarint(offset: start) }
    }
  }

  /// A count of things each at least one byte long: never more than the bytes left.
  mutating func count() throws(LogRecordDecodingError) -> Int {
    let start = offset
    let value = try varint()
    guard value <= UInt64(remaining) else { throw .truncated(offset: start) }
    return Int(value)
  }

  /// A string's UTF-8, borrowed, checked as ``string()`` checks it (without building a
  /// `String` for ASCII).
  mutating func utf8() throws(LogRecordDecodingError) -> UnsafeRawBufferPointer {
    let start = offset
    let count = try count()
    let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    guard slice.isASCII || String(validating: slice, as: UTF8.self) != nil
    else { throw .invalidUTF8(offset: start) }
    offset += count
    return slice
  }

  mutating func string() throws(LogRecordDecodingError) -> String {
    let start = offset
    let count = try count()
    let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    guard let text = String(validating: slice, as: UTF8.self) else {
      throw .invalidUTF8(offset: start)
    }
    offset += count
    return text
  }

  mutating func map(depth: Int) throws(LogRecordDecodingError) -> LogMetadata {
    let count = try count()
    // Reserved up to a small bound: a hostile count costs no more than the bytes it spans.
    var map = LogMetadata(minimumCapacity: min(count, 64))
    for _ in 0..<count {
      let keyOffset = offset
      let key = try string()
      let value = try self.value(depth: depth)
      guard map.updateValue(value, forKey: key) == nil else {
        throw .duplicateKey(offset: keyOffset)
      }
    }
    return map
  }

  mutating func value(depth: Int) throws(LogRecordDecodingError) -> LogMetadataValue {
    let start = offset
    let kind = try byte()
    switch kind {
    case LogRecordFormat.kindString:
      return .string(try string())
    case LogRecordFormat.kindStringConvertible:
      return .stringConvertible(try string())
    case LogRecordFormat.kindDictionary:
      guard depth <= LogRecordFormat.maximumDepth else { throw .nestedTooDeep(offset: start) }
      return .dictionary(try map(depth: depth + 1))
    case LogRecordFormat.kindArray:
      guard depth <= LogRecordFormat.maximumDepth else { throw .nestedTooDeep(offset: start) }
      let count = try count()
      var values: [LogMetadataValue] = []
      values.reserveCapacity(min(count, 64))
      for _ in 0..<count { values.append(try value(depth: depth + 1)) }
      return .array(values)
    default:
      throw .unknownValueKind(kind, offset: start)
    }
  }
}

/// The fixed first bytes of an encoded log record (``LogRecordFormat/header(of:)``): enough to
/// filter records by level and time without decoding them, whatever their version.
public struct LogRecordHeader: Sendable, Hashable {
  /// The format version the record was written with.
  public var version: UInt8
  /// The level byte as stored.
  public var levelRawValue: UInt8
  /// Wall-clock time when it was logged, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var timeNanoseconds: Int64

  /// Creates a header; every parameter is the property of the same name.
  public init(version: UInt8, levelRawValue: UInt8, timeNanoseconds: Int64) {
    self.version = version
    self.levelRawValue = levelRawValue
    self.timeNanoseconds = timeNanoseconds
  }

  /// The level, or `nil` for a byte this build does not know.
  public var level: LogLevel? { LogLevel(rawValue: levelRawValue) }
}

/// The fields of an encoded log record, borrowed from its bytes without decoding them into
/// strings: what a reader that only copies them elsewhere (the forwarder, writing OTLP
/// protobuf) needs, at no allocation per record. Read with `LogRecordFormat.fields(of:metadata:)`;
/// valid only while the bytes are borrowed.
///
/// Not a shape of its own: the forwarder's fast path over the same bytes ``LogRecord``
/// decodes to, package-internal, and held byte for byte to the model's encoding by the
/// forwarder's tests. It is 4.25 times cheaper a record than decoding (`BENCHMARKS.md`).
package struct LogRecordFields {
  /// The level.
  package var level: LogLevel
  /// Wall-clock time, nanoseconds since 1970.
  package var timeNanoseconds: Int64
  /// The logger's label, UTF-8.
  package var label: UnsafeRawBufferPointer
  /// The message, UTF-8.
  package var message: UnsafeRawBufferPointer
  /// The source, UTF-8.
  package var source: UnsafeRawBufferPointer
  /// The file, UTF-8.
  package var file: UnsafeRawBufferPointer
  /// The function, UTF-8.
  package var function: UnsafeRawBufferPointer
  /// The line.
  package var line: UInt64
}
