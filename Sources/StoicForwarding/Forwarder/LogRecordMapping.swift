public import StoicTelemetry

/// How a spooled `StoicTelemetry/LogRecord` becomes an OTLP log record: the same record
/// always gives the same OTLP record (metadata sorted by key), so a batch re-formed after a
/// restart has the same body.
///
/// - time and observed time: the record's time;
/// - severity: trace 1, debug 5, info 9, notice 10 (INFO2), warning 13, error 17, critical
///   21, with the level's name in capitals as the text;
/// - body: the message;
/// - attributes: the metadata (nested dictionaries as `kvlist`, arrays as `array`), then
///   `log.label`, `log.source`, `code.filepath`, `code.function`, `code.lineno` and
///   `stoic.sequence` (the record's sequence in its spool).
public enum LogRecordMapping {
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

  /// The OTLP record for `record`.
  public static func otlp(_ record: LogRecord) -> OTLP.LogRecord {
    let time = UInt64(clamping: record.timeNanoseconds)
    var attributes = attributes(record.metadata)
    attributes.append(OTLP.KeyValue("log.label", .string(record.label)))
    if !record.source.isEmpty {
      attributes.append(OTLP.KeyValue("log.source", .string(record.source)))
    }
    if !record.file.isEmpty {
      attributes.append(OTLP.KeyValue("code.filepath", .string(record.file)))
    }
    if !record.function.isEmpty {
      attributes.append(OTLP.KeyValue("code.function", .string(record.function)))
    }
    attributes.append(OTLP.KeyValue("code.lineno", .int(Int64(clamping: record.line))))
    attributes.append(OTLP.KeyValue("stoic.sequence", .int(Int64(clamping: record.sequence))))
    return OTLP.LogRecord(
      timeUnixNano: time, observedTimeUnixNano: time, severityNumber: severity(record.level),
      severityText: record.level.description.uppercased(), body: .string(record.message),
      attributes: attributes)
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
