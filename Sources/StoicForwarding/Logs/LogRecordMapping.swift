public import StoicTelemetry

extension UnsafeRawBufferPointer {
  /// The UTF-8 of a static string (whose storage lives as long as the process).
  fileprivate init(_ text: StaticString) {
    self.init(start: text.utf8Start, count: text.utf8CodeUnitCount)
  }
}

/// How a spooled `StoicTelemetry/LogRecord` becomes an OTLP log record: the same record
/// always gives the same OTLP record (metadata sorted by key), so a batch re-formed after a
/// restart has the same body.
///
/// - time and observed time: the record's time;
/// - severity: trace 1, debug 5, info 9, notice 10 (INFO2), warning 13, error 17, critical
///   21 (FATAL), with the level's name in capitals as the text. swift-log's `critical` is
///   its highest level, for a condition the program cannot carry on from, which is what
///   OpenTelemetry's FATAL range (21–24) means ("a non-recoverable error"); swift-otel maps it
///   to ERROR2 (18) instead, which leaves FATAL unused and sorts a critical record among
///   ordinary errors in a backend's severity filter;
/// - body: the message;
/// - attributes: the metadata as it is (nested dictionaries as `kvlist`, arrays as `array`;
///   an error that StoicLogging records as `exception.type` and `exception.message` arrives
///   under those names), then `log.label`, `log.source`, and the semantic conventions' code
///   attributes (stable since semconv 1.33.0, <https://opentelemetry.io/docs/specs/semconv/registry/attributes/code/>):
///   `code.file.path` (what swift-log's `#fileID` gives, `Module/File.swift`, not an absolute
///   path), `code.function.name` (swift-log's `#function`, `name(label:)` without its type),
///   `code.line.number`; with ``ForwarderOptions/CodeAttributes/currentAndDeprecated`` also
///   the names they replaced (`code.filepath`, `code.function`, `code.lineno`), for older
///   backends; then `stoic.sequence` (the record's sequence in its spool);
/// - keys unique and never empty, as OTLP requires: a metadata key that is one of the names
///   above Stoic derives from the record (`log.label`, `log.source`, the code attributes of the
///   configured set, `stoic.sequence`) is dropped in favour of the derived value, and so is an
///   empty key; the record's `dropped_attributes_count` counts them;
/// - trace context: a well-formed trace id, span id and flags under the keys of
///   ``TraceContextKeys`` (swift-otel's by default) fill `trace_id`, `span_id` and `flags`
///   and leave the attributes; malformed ones stay attributes.
public enum LogRecordMapping {
  /// OTLP `LogRecord`'s fields (the one table of them).
  typealias Field = OTLPLogRecordField

  /// The OTLP severity of `level`.
  public static func severity(_ level: LogLevel) -> OTLP.SeverityNumber {
    switch level {
    case .trace: .trace
    case .debug: .debug
    case .info: .info
    case .notice: .info2
    case .warning: .warn
    case .error: .error
    case .critical: .fatal
    }
  }

  /// The OTLP record for `record`, with the code attributes `codeAttributes` names and the
  /// trace context found under `traceContext` (`nil`: none is looked for) in its fields.
  public static func otlp(
    _ record: LogRecord, codeAttributes: ForwarderOptions.CodeAttributes = .current,
    traceContext: TraceContextKeys? = .swiftOTel
  ) -> OTLP.LogRecord {
    let time = UInt64(clamping: record.timeNanoseconds)
    var metadata = record.metadata
    let found = traceContext?.find { key -> String.UTF8View? in
      switch metadata[key] {
      case .string(let text)?, .stringConvertible(let text)?: text.utf8
      default: nil
      }
    }
    if let traceContext, let found {
      metadata[traceContext.traceID] = nil
      metadata[traceContext.spanID] = nil
      if found.flags != nil { metadata[traceContext.traceFlags] = nil }
    }
    let reserved = metadata.keys.filter { Keys.isReserved($0.utf8, codeAttributes) }
    for key in reserved { metadata[key] = nil }
    var attributes = attributes(metadata)
    attributes.append(OTLP.KeyValue(Keys.label.description, .string(record.label)))
    if !record.source.isEmpty {
      attributes.append(OTLP.KeyValue(Keys.source.description, .string(record.source)))
    }
    for keys in Keys.code(codeAttributes) {
      if !record.file.isEmpty {
        attributes.append(OTLP.KeyValue(keys.file.description, .string(record.file)))
      }
      if !record.function.isEmpty {
        attributes.append(OTLP.KeyValue(keys.function.description, .string(record.function)))
      }
      attributes.append(OTLP.KeyValue(keys.line.description, .int(Int64(clamping: record.line))))
    }
    attributes.append(
      OTLP.KeyValue(Keys.sequence.description, .int(Int64(clamping: record.sequence))))
    return OTLP.LogRecord(
      timeUnixNano: time, observedTimeUnixNano: time, severityNumber: severity(record.level),
      severityText: record.level.description.uppercased(), body: .string(record.message),
      attributes: attributes, droppedAttributesCount: UInt32(clamping: reserved.count),
      flags: found?.flags ?? 0, traceId: found?.traceID ?? [],
      spanId: found?.spanID ?? [])
  }

  /// The OTLP record of a spooled record, as protobuf, written from its encoded fields
  /// (`LogRecordFormat.fields(of:metadata:)`) without building strings or an
  /// ``OTLP/LogRecord``: the same bytes as ``otlp(_:)`` encoded, field for field (a test holds
  /// the two to that).
  static func writeProtobuf(
    _ record: LogRecordFields, sequence: UInt64,
    metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)],
    codeAttributes: ForwarderOptions.CodeAttributes = .current,
    traceContext: TraceContextKeys? = .swiftOTel, to writer: inout ProtobufWriter
  ) {
    let time = UInt64(clamping: record.timeNanoseconds)
    writer.fixed64(Field.timeUnixNano.number, time)
    writer.int32(Field.severityNumber.number, severity(record.level).rawValue)
    let text = severityTexts[Int(record.level.rawValue)]
    writer.tag(Field.severityText.number, .lengthDelimited)
    writer.varint(UInt64(text.count))
    text.withUnsafeBufferPointer { writer.bytes.append($0) }
    let body = writer.beginMessage(Field.body.number)
    writeString(OTLPCommonProtobuf.AnyValueField.stringValue, record.message, to: &writer)
    writer.endMessage(body)
    let found = traceContext?.find { key in
      metadata.first { Self.bytes($0.key, spell: key) }?.value
    }
    var dropped: UInt64 = 0
    for pair in metadata {
      if let traceContext, let found, traceContext.moved(pair.key, found) { continue }
      if Keys.isReserved(pair.key, codeAttributes) {
        dropped += 1
        continue
      }
      writeAttribute(pair.key, string: pair.value, to: &writer)
    }
    forEachFieldAttribute(
      of: record, sequence: sequence, codeAttributes: codeAttributes,
      string: { writeAttribute($0, string: $1, to: &writer) },
      int: { writeAttribute($0, int: $1, to: &writer) })
    writer.uint64(Field.droppedAttributesCount.number, dropped)
    if let found {
      writer.fixed32(Field.flags.number, found.flags ?? 0)
      writer.bytes(Field.traceId.number, found.traceID)
      writer.bytes(Field.spanId.number, found.spanID)
    }
    writer.fixed64(Field.observedTimeUnixNano.number, time)
  }

  /// The OTLP record of a spooled record, as OTLP JSON, written from its encoded fields
  /// (`LogRecordFormat.fields(of:metadata:)`) without building strings or an
  /// ``OTLP/LogRecord``: the same bytes as ``otlp(_:)`` encoded as JSON, key for key (a test
  /// holds the two to that).
  static func writeJSON(
    _ record: LogRecordFields, sequence: UInt64,
    metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)],
    codeAttributes: ForwarderOptions.CodeAttributes = .current,
    traceContext: TraceContextKeys? = .swiftOTel, to writer: inout JSONWriter
  ) {
    let time = UInt64(clamping: record.timeNanoseconds)
    let found = traceContext?.find { key in
      metadata.first { Self.bytes($0.key, spell: key) }?.value
    }
    writer.object { object in
      if time != 0 {
        object.key(Field.timeUnixNano.jsonKey)
        object.quoted(time)
      }
      object.key(Field.severityNumber.jsonKey)
      object.number(Int64(severity(record.level).rawValue))
      object.key(Field.severityText.jsonKey)
      severityTexts[Int(record.level.rawValue)].withUnsafeBytes { object.string(utf8: $0) }
      object.key(Field.body.jsonKey)
      object.object { body in
        body.key("stringValue")
        body.string(utf8: record.message)
      }
      object.key(Field.attributes.jsonKey)
      var dropped: Int64 = 0
      object.array { attributes in
        for pair in metadata {
          if let traceContext, let found, traceContext.moved(pair.key, found) { continue }
          if Keys.isReserved(pair.key, codeAttributes) {
            dropped += 1
            continue
          }
          writeJSONAttribute(pair.key, string: pair.value, to: &attributes)
        }
        forEachFieldAttribute(
          of: record, sequence: sequence, codeAttributes: codeAttributes,
          string: { writeJSONAttribute($0, string: $1, to: &attributes) },
          int: { writeJSONAttribute($0, int: $1, to: &attributes) })
      }
      OTLPCommonJSON.writeNumber(Field.droppedAttributesCount.jsonKey, dropped, to: &object)
      if let found {
        if let flags = found.flags, flags != 0 {
          object.key(Field.flags.jsonKey)
          object.number(UInt64(flags))
        }
        object.key(Field.traceId.jsonKey)
        object.hex(found.traceID)
        object.key(Field.spanId.jsonKey)
        object.hex(found.spanID)
      }
      if time != 0 {
        object.key(Field.observedTimeUnixNano.jsonKey)
        object.quoted(time)
      }
    }
  }

  /// The attributes a record's own fields give, after its metadata, in the order ``otlp(_:)``
  /// appends them: `log.label`, `log.source` (when not empty), the code attributes, then
  /// `stoic.sequence`.
  @inline(__always)
  private static func forEachFieldAttribute(
    of record: LogRecordFields, sequence: UInt64,
    codeAttributes: ForwarderOptions.CodeAttributes,
    string: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void,
    int: (UnsafeRawBufferPointer, Int64) -> Void
  ) {
    string(.init(Keys.label), record.label)
    if !record.source.isEmpty { string(.init(Keys.source), record.source) }
    for keys in Keys.code(codeAttributes) {
      if !record.file.isEmpty { string(.init(keys.file), record.file) }
      if !record.function.isEmpty { string(.init(keys.function), record.function) }
      int(.init(keys.line), Int64(clamping: record.line))
    }
    int(.init(Keys.sequence), Int64(clamping: sequence))
  }

  /// A JSON `KeyValue` object with a string value.
  private static func writeJSONAttribute(
    _ key: UnsafeRawBufferPointer, string value: UnsafeRawBufferPointer,
    to writer: inout JSONWriter
  ) {
    writer.object { pair in
      pair.key("key")
      pair.string(utf8: key)
      pair.key("value")
      pair.object { any in
        any.key("stringValue")
        any.string(utf8: value)
      }
    }
  }

  /// A JSON `KeyValue` object with an integer value (a decimal string, as proto3 writes
  /// `int64`).
  private static func writeJSONAttribute(
    _ key: UnsafeRawBufferPointer, int value: Int64, to writer: inout JSONWriter
  ) {
    writer.object { pair in
      pair.key("key")
      pair.string(utf8: key)
      pair.key("value")
      pair.object { any in
        any.key("intValue")
        any.quoted(value)
      }
    }
  }

  /// The attribute keys a record gets besides its metadata, for ``otlp(_:)`` and the direct
  /// protobuf path alike.
  private enum Keys {
    static let label: StaticString = "log.label"
    static let source: StaticString = "log.source"
    static let sequence: StaticString = "stoic.sequence"

    /// The names of a record's file, function and line.
    struct Code {
      let file: StaticString
      let function: StaticString
      let line: StaticString
    }
    static let current = Code(
      file: "code.file.path", function: "code.function.name", line: "code.line.number")
    static let deprecated = Code(
      file: "code.filepath", function: "code.function", line: "code.lineno")
    static let currentOnly = [current]
    static let both = [current, deprecated]

    /// The names `option` asks for, current first.
    static func code(_ option: ForwarderOptions.CodeAttributes) -> [Code] {
      option == .current ? currentOnly : both
    }

    /// Whether a metadata key is one a record may not carry as its own: empty, or a name Stoic
    /// derives from the record under `option` (the derived value wins).
    static func isReserved(
      _ key: some Collection<UInt8>, _ option: ForwarderOptions.CodeAttributes
    ) -> Bool {
      guard !key.isEmpty else { return true }
      func equal(_ name: StaticString) -> Bool {
        key.count == name.utf8CodeUnitCount && key.elementsEqual(UnsafeRawBufferPointer(name))
      }
      if equal(label) || equal(source) || equal(sequence) { return true }
      return code(option).contains { equal($0.file) || equal($0.function) || equal($0.line) }
    }
  }

  /// Whether `bytes` are `text`'s UTF-8: the lengths compared first, so a key of another length
  /// (most of a record's) costs one comparison, not a walk through a `String.UTF8View`.
  static func bytes(_ bytes: UnsafeRawBufferPointer, spell text: String) -> Bool {
    let utf8 = text.utf8
    guard bytes.count == utf8.count else { return false }
    return utf8.withContiguousStorageIfAvailable { stored in
      bytes.elementsEqual(UnsafeRawBufferPointer(stored))
    } ?? bytes.elementsEqual(utf8)
  }

  /// Each level's severity text, by raw value, as UTF-8.
  private static let severityTexts: [[UInt8]] = (0...UInt8.max).map { raw in
    LogLevel(rawValue: raw).map { Array($0.description.uppercased().utf8) } ?? []
  }

  /// A string field written even when empty (a oneof member).
  private static func writeString(
    _ field: Int, _ bytes: UnsafeRawBufferPointer, to writer: inout ProtobufWriter
  ) {
    writer.tag(field, .lengthDelimited)
    writer.varint(UInt64(bytes.count))
    writer.bytes.append(bytes.assumingMemoryBound(to: UInt8.self))
  }

  /// A `KeyValue` attribute (field 6) with a string value.
  private static func writeAttribute(
    _ key: UnsafeRawBufferPointer, string value: UnsafeRawBufferPointer,
    to writer: inout ProtobufWriter
  ) {
    let pair = writer.beginMessage(Field.attributes.number)
    if !key.isEmpty { writeString(OTLPCommonProtobuf.KeyValueField.key, key, to: &writer) }
    let slot = writer.beginMessage(OTLPCommonProtobuf.KeyValueField.value)
    writeString(OTLPCommonProtobuf.AnyValueField.stringValue, value, to: &writer)
    writer.endMessage(slot)
    writer.endMessage(pair)
  }

  /// A `KeyValue` attribute (field 6) with an integer value.
  private static func writeAttribute(
    _ key: UnsafeRawBufferPointer, int value: Int64, to writer: inout ProtobufWriter
  ) {
    let pair = writer.beginMessage(Field.attributes.number)
    writeString(OTLPCommonProtobuf.KeyValueField.key, key, to: &writer)
    let slot = writer.beginMessage(OTLPCommonProtobuf.KeyValueField.value)
    writer.presentVarint(OTLPCommonProtobuf.AnyValueField.intValue, UInt64(bitPattern: value))
    writer.endMessage(slot)
    writer.endMessage(pair)
  }

  /// Metadata as attributes, sorted by key.
  static func attributes(_ metadata: LogMetadata) -> [OTLP.KeyValue] {
    metadata.sorted { $0.key < $1.key }.map { OTLP.KeyValue($0.key, value($0.value)) }
  }

  /// A metadata value as an OTLP value.
  static func value(_ value: LogMetadataValue) -> OTLP.AnyValue {
    switch value {
    case .string(let text), .stringConvertible(let text): .string(text)
    case .dictionary(let entries): .kvlist(attributes(entries))
    case .array(let values): .array(values.map(Self.value))
    }
  }
}
