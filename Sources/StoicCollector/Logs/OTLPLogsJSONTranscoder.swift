internal import StoicForwarding

/// An OTLP/JSON `ExportLogsServiceRequest` turned straight into its binary protobuf, walking
/// the JSON once and writing the protobuf as it goes, without building the request: for a
/// receiver that stores JSON requests as protobuf and only needs to know how many log records
/// they hold, and for which resources.
///
/// The result is the bytes `OTLP.ExportLogsServiceRequest(json:)` followed by
/// `encoded(as: .protobuf)` gives, byte for byte. The walk reads the JSON with the decoder's
/// rules (``OTLPLogsJSON``, ``OTLPCommonJSON``: the same ``JSONReader``, `null` as the default,
/// unknown keys skipped with their syntax checked, integers as numbers or strings, hex ids),
/// but keys, strings and plain integers are handled as bytes, the attribute encoders write
/// most (`{"key":"…","value":{"stringValue":"…"}}`, compact) is matched in one pass, and a log
/// record's fields are written in the order they come. Protobuf's order is the field numbers', and a repeated JSON
/// key replaces the earlier value where the protobuf would hold both, so the walk gives up
/// (returns `nil`) on a request that is not in the shape encoders write: a field before one
/// with a lower number, a field twice, an `AnyValue` with two values, a `KeyValue` with an
/// empty value. It gives up as well on anything the decoder would refuse. The caller then
/// decodes with the model, which answers the request or the error exactly: the walk decides
/// only how fast the answer comes, never what it is.
///
/// Resources and scopes, a few per request, are decoded in full (the caller needs the
/// resources) and written with the model's encoder.
enum OTLPLogsJSONTranscoder {
  /// A request transcoded.
  struct Transcoded {
    /// The request as binary protobuf.
    var protobuf: [UInt8]
    /// Each `ResourceLogs` in order, with its resource and record count.
    var resources: [OTLPLogsProtobufSummary.ResourceCount]
  }

  /// Transcodes `json`.
  ///
  /// - Returns: The protobuf and the resources, or `nil` when the JSON is not a request in the
  ///   shape encoders write or not a request at all: decode it with the model then.
  static func transcode(_ json: [UInt8]) -> Transcoded? {
    var reader = JSONReader(json)
    var writer = ProtobufWriter(capacity: json.count / 2 + 64)
    var resources: [OTLPLogsProtobufSummary.ResourceCount] = []
    do {
      try reader.beginObject()
      while try nextField(&reader, requestField) != nil {
        try reader.beginArray()
        while try reader.nextElement() {
          resources.append(try resourceLogs(&reader, &writer))
        }
      }
      try reader.finish()
    } catch {
      return nil
    }
    var protobuf: [UInt8] = []
    writer.bytes.copy(appendingTo: &protobuf)
    return Transcoded(protobuf: protobuf, resources: resources)
  }

  private typealias Nesting = OTLPCommonProtobuf
  private typealias Record = OTLPLogRecordField
  private typealias Value = OTLPCommonProtobuf.AnyValueField

  /// The walk gave up (the error is never shown: the model decodes the request then).
  private static func notCanonical(_ reader: JSONReader) -> ForwardingError {
    reader.error(.malformed, "not in the order or shape encoders write")
  }

  /// The number `field` gives the next key of the object being read whose value is not
  /// `null`, or `nil` at the object's end. A `null` is the field's default and a key `field`
  /// does not know (0) is skipped, as the decoder does both.
  private static func nextField(
    _ reader: inout JSONReader, _ field: (UnsafeBufferPointer<UInt8>) -> Int
  ) throws(ForwardingError) -> Int? {
    while let number = try reader.nextKey(matching: field) {
      if try reader.readNull() { continue }
      if number != 0 { return number }
      try reader.skipValue()
    }
    return nil
  }

  // MARK: Resource → Scope → record

  private static func resourceLogs(_ reader: inout JSONReader, _ writer: inout ProtobufWriter)
    throws(ForwardingError) -> OTLPLogsProtobufSummary.ResourceCount
  {
    var count = OTLPLogsProtobufSummary.ResourceCount(resource: nil, logRecords: 0)
    let group = writer.beginMessage(Nesting.RequestField.resourceGroups)
    try reader.beginObject()
    var last = 0
    while let field = try nextField(&reader, resourceLogsField) {
      // Scope groups under a repeated key add up, as the decoder appends them.
      guard field > last || field == Nesting.ResourceGroupField.scopeGroups && last == field
      else { throw notCanonical(reader) }
      last = field
      switch field {
      case Nesting.ResourceGroupField.resource:
        let resource = try OTLPCommonJSON.readResource(&reader)
        count.resource = resource
        writer.message(field) { OTLPCommonProtobuf.write(resource, to: &$0) }
      case Nesting.ResourceGroupField.scopeGroups:
        try reader.beginArray()
        while try reader.nextElement() {
          let scopeGroup = writer.beginMessage(field)
          count.logRecords += try scopeLogs(&reader, &writer)
          writer.endMessage(scopeGroup)
        }
      default:
        try string(field, &reader, &writer)
      }
    }
    writer.endMessage(group)
    return count
  }

  /// Transcodes a `ScopeLogs`; returns its number of log records.
  private static func scopeLogs(_ reader: inout JSONReader, _ writer: inout ProtobufWriter)
    throws(ForwardingError) -> Int
  {
    var records = 0
    try reader.beginObject()
    var last = 0
    while let field = try nextField(&reader, scopeLogsField) {
      guard field > last || field == Nesting.ScopeGroupField.items && last == field else {
        throw notCanonical(reader)
      }
      last = field
      switch field {
      case Nesting.ScopeGroupField.scope:
        let scope = try OTLPCommonJSON.readScope(&reader)
        writer.message(field) { OTLPCommonProtobuf.write(scope, to: &$0) }
      case Nesting.ScopeGroupField.items:
        try reader.beginArray()
        while try reader.nextElement() {
          let record = writer.beginMessage(field)
          try logRecord(&reader, &writer)
          writer.endMessage(record)
          records += 1
        }
      default:
        try string(field, &reader, &writer)
      }
    }
    return records
  }

  private static func logRecord(_ reader: inout JSONReader, _ writer: inout ProtobufWriter)
    throws(ForwardingError)
  {
    try reader.beginObject()
    var last = 0
    while let field = try nextField(&reader, recordField) {
      guard field > last else { throw notCanonical(reader) }
      last = field
      // `nextField` gives only the numbers of `Record`'s fields.
      guard let record = Record(rawValue: field) else { throw notCanonical(reader) }
      switch record {
      case .timeUnixNano, .observedTimeUnixNano:
        writer.fixed64(field, try uint64(&reader))
      case .severityNumber:
        writer.int32(field, try int32(&reader))
      case .severityText:
        try string(field, &reader, &writer)
      case .body:
        let body = writer.beginMessage(field)
        _ = try anyValue(&reader, &writer)
        writer.endMessage(body)
      case .attributes:
        try attributes(field, &reader, &writer)
      case .droppedAttributesCount:
        writer.uint64(field, UInt64(try uint32(&reader)))
      case .flags:
        writer.fixed32(field, try uint32(&reader))
      case .traceId, .spanId:
        try hex(field, &reader, &writer)
      }
    }
  }

  // MARK: Common messages

  /// Transcodes an array of `KeyValue` objects as repeated field `field`.
  private static func attributes(
    _ field: Int, _ reader: inout JSONReader, _ writer: inout ProtobufWriter
  ) throws(ForwardingError) {
    try reader.beginArray()
    while try reader.nextElement() {
      if try reader.readValue(nesting: 2, matching: { usualAttribute(field, $0, $1, &writer) }) {
        continue
      }
      let pair = writer.beginMessage(field)
      try reader.beginObject()
      var last = 0
      while let member = try nextField(&reader, keyValueField) {
        guard member > last else { throw notCanonical(reader) }
        last = member
        if member == Nesting.KeyValueField.key {
          try string(member, &reader, &writer)
        } else {
          // An empty value is left out; its tag is already written, so give up instead.
          let value = writer.beginMessage(member)
          guard try anyValue(&reader, &writer) else { throw notCanonical(reader) }
          writer.endMessage(value)
        }
      }
      writer.endMessage(pair)
    }
  }

  /// The attribute the encoders write most, in their compact form, matched in one pass:
  /// `{"key":"…","value":{"stringValue":"…"}}` (strings with no escape) or
  /// `{"key":"…","value":{"intValue":"…"}}` (decimal digits). Writes it as `KeyValue` field
  /// `field` and returns where it ends, or returns `nil` (having written nothing) for any
  /// other bytes, which the general walk then reads.
  private static func usualAttribute(
    _ field: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int,
    _ writer: inout ProtobufWriter
  ) -> Int? {
    var cursor = start
    guard literal(#"{"key":""#, bytes, &cursor) else { return nil }
    let keyStart = cursor
    guard let keyEnd = plainString(bytes, &cursor),
      literal(#","value":{""#, bytes, &cursor)
    else { return nil }
    let member: Int
    if literal(#"stringValue":""#, bytes, &cursor) {
      member = Value.stringValue
    } else if literal(#"intValue":""#, bytes, &cursor) {
      member = Value.intValue
    } else {
      return nil
    }
    let valueStart = cursor
    guard let valueEnd = plainString(bytes, &cursor), literal("}}", bytes, &cursor) else {
      return nil
    }
    let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
    var integer: UInt64 = 0
    if member == Value.intValue {
      // `UInt64(text)`'s reading of digits only, within Int64.
      guard !value.isEmpty else { return nil }
      for digit in value {
        let (times10, overflow) = integer.multipliedReportingOverflow(by: 10)
        guard digit &- UInt8(ascii: "0") < 10, !overflow, times10 <= UInt64(Int64.max) else {
          return nil
        }
        integer = times10 + UInt64(digit &- UInt8(ascii: "0"))
        guard integer <= UInt64(Int64.max) else { return nil }
      }
    }
    let pair = writer.beginMessage(field)
    if keyEnd > keyStart {
      present(
        Nesting.KeyValueField.key, UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]), &writer)
    }
    let slot = writer.beginMessage(Nesting.KeyValueField.value)
    if member == Value.stringValue {
      present(member, value, &writer)
    } else {
      writer.presentVarint(member, integer)
    }
    writer.endMessage(slot)
    writer.endMessage(pair)
    return cursor
  }

  /// Whether `text` comes at `cursor` (then moved past it).
  @inline(__always)
  private static func literal(
    _ text: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int
  ) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - cursor >= count else { return false }
    let expected = text.utf8Start
    for index in 0..<count where bytes[cursor + index] != expected[index] { return false }
    cursor += count
    return true
  }

  /// The end of the string content at `cursor` when it has no escape or control character
  /// and is valid UTF-8 (`cursor` then moved past its closing quote), else `nil`.
  @inline(__always)
  private static func plainString(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int)
    -> Int?
  {
    var index = cursor
    var high: UInt8 = 0
    // Eight bytes at a time while none is a quote, a backslash or a control character (each
    // test is exact for the word as a whole); then byte by byte.
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      var highWord: UInt64 = 0
      while bytes.count - index >= 8 {
        let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special =
          ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | ((word &- ones &* 0x20) & ~word)
        guard special & highs == 0 else { break }
        highWord |= word
        index += 8
      }
      if highWord & highs != 0 { high = 0x80 }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      high |= byte
      index += 1
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    if high >= 0x80 {
      guard UTF8Validation.isValid(UnsafeBufferPointer(rebasing: bytes[cursor..<index])) else {
        return nil
      }
    }
    let end = index
    cursor = index + 1
    return end
  }

  /// Transcodes the fields of an `AnyValue` object; returns whether it held a value.
  private static func anyValue(_ reader: inout JSONReader, _ writer: inout ProtobufWriter)
    throws(ForwardingError) -> Bool
  {
    try reader.beginObject()
    var written = false
    while let member = try nextField(&reader, anyValueField) {
      guard !written else { throw notCanonical(reader) }
      written = true
      switch member {
      case Value.stringValue:
        try reader.readString { present(member, $0, &writer) }
      case Value.boolValue:
        writer.presentVarint(member, try reader.readBool() ? 1 : 0)
      case Value.intValue:
        writer.presentVarint(member, UInt64(bitPattern: try int64(&reader)))
      case Value.doubleValue:
        writer.presentFixed64(member, try OTLPCommonJSON.readDouble(&reader).bitPattern)
      case Value.arrayValue:
        let array = writer.beginMessage(member)
        try reader.beginObject()
        // Elements under a repeated `values` add up, as the decoder appends them.
        while try nextField(&reader, valuesField) != nil {
          try reader.beginArray()
          while try reader.nextElement() {
            let element = writer.beginMessage(OTLPCommonProtobuf.ArrayValueField.values)
            _ = try anyValue(&reader, &writer)
            writer.endMessage(element)
          }
        }
        writer.endMessage(array)
      case Value.kvlistValue:
        let list = writer.beginMessage(member)
        try reader.beginObject()
        var seen = false
        while try nextField(&reader, valuesField) != nil {
          guard !seen else { throw notCanonical(reader) }
          seen = true
          try attributes(OTLPCommonProtobuf.KeyValueListField.values, &reader, &writer)
        }
        writer.endMessage(list)
      default:
        writer.presentBytes(member, try OTLPCommonJSON.readBase64(&reader))  // bytesValue
      }
    }
    return written
  }

  // MARK: Scalars

  /// A `string` field, left out when empty.
  private static func string(
    _ field: Int, _ reader: inout JSONReader, _ writer: inout ProtobufWriter
  ) throws(ForwardingError) {
    try reader.readString { utf8 in
      if !utf8.isEmpty { present(field, utf8, &writer) }
    }
  }

  /// A length-delimited field of `bytes`, written even when empty.
  @inline(__always)
  private static func present(
    _ field: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ writer: inout ProtobufWriter
  ) {
    writer.tag(field, .lengthDelimited)
    writer.varint(UInt64(bytes.count))
    writer.bytes.append(bytes)
  }

  /// A `bytes` field in hex (`traceId`, `spanId`), left out when empty.
  private static func hex(_ field: Int, _ reader: inout JSONReader, _ writer: inout ProtobufWriter)
    throws(ForwardingError)
  {
    let valid = try reader.readString { digits -> Bool in
      guard digits.count % 2 == 0 else { return false }
      guard !digits.isEmpty else { return true }
      writer.tag(field, .lengthDelimited)
      writer.varint(UInt64(digits.count / 2))
      var index = 0
      while index < digits.count {
        guard let high = HexDigit.value(digits[index]),
          let low = HexDigit.value(digits[index + 1])
        else {
          return false
        }
        writer.bytes.append(high << 4 | low)
        index += 2
      }
      return true
    }
    guard valid else { throw notCanonical(reader) }
  }

  // The integers: digits read as bytes, anything else the decoder's way.

  private static func uint64(_ reader: inout JSONReader) throws(ForwardingError) -> UInt64 {
    if let value = try reader.readPlainUnsigned(atMost: .max) { return value }
    return try OTLPCommonJSON.readUInt64(&reader)
  }

  private static func int64(_ reader: inout JSONReader) throws(ForwardingError) -> Int64 {
    if let value = try reader.readPlainUnsigned(atMost: UInt64(Int64.max)) {
      return Int64(truncatingIfNeeded: value)
    }
    return try OTLPCommonJSON.readInt64(&reader)
  }

  private static func uint32(_ reader: inout JSONReader) throws(ForwardingError) -> UInt32 {
    if let value = try reader.readPlainUnsigned(atMost: UInt64(UInt32.max)) {
      return UInt32(truncatingIfNeeded: value)
    }
    return try OTLPCommonJSON.readUInt32(&reader)
  }

  private static func int32(_ reader: inout JSONReader) throws(ForwardingError) -> Int32 {
    if let value = try reader.readPlainUnsigned(atMost: UInt64(Int32.max)) {
      return Int32(truncatingIfNeeded: value)
    }
    return try OTLPCommonJSON.readInt32(&reader)
  }

  // MARK: Keys (0: a key the decoder skips)

  private static func requestField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    key.isKey("resourceLogs") ? Nesting.RequestField.resourceGroups : 0
  }

  private static func resourceLogsField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    if key.isKey("scopeLogs") { return Nesting.ResourceGroupField.scopeGroups }
    if key.isKey("resource") { return Nesting.ResourceGroupField.resource }
    return key.isKey("schemaUrl") ? Nesting.ResourceGroupField.schemaUrl : 0
  }

  private static func scopeLogsField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    if key.isKey("logRecords") { return Nesting.ScopeGroupField.items }
    if key.isKey("scope") { return Nesting.ScopeGroupField.scope }
    return key.isKey("schemaUrl") ? Nesting.ScopeGroupField.schemaUrl : 0
  }

  private static func recordField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    Record(jsonKey: key)?.number ?? 0
  }

  private static func keyValueField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    key.isKey("key")
      ? Nesting.KeyValueField.key : key.isKey("value") ? Nesting.KeyValueField.value : 0
  }

  private static func anyValueField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    switch key.count {
    case 8: key.isKey("intValue") ? Value.intValue : 0
    case 9: key.isKey("boolValue") ? Value.boolValue : 0
    case 10:
      key.isKey("arrayValue")
        ? Value.arrayValue : key.isKey("bytesValue") ? Value.bytesValue : 0
    case 11:
      key.isKey("stringValue")
        ? Value.stringValue
        : key.isKey("doubleValue")
          ? Value.doubleValue : key.isKey("kvlistValue") ? Value.kvlistValue : 0
    default: 0
    }
  }

  /// `values` (ArrayValue, KeyValueList): 1.
  private static func valuesField(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    key.isKey("values") ? OTLPCommonProtobuf.ArrayValueField.values : 0
  }
}
