import StoicCollector
import StoicForwarding
import StoicStore
import StoicTelemetry

/// The log records of the example collector's store, as `query` and `tail` show them: the
/// store opened with ``CollectorArchive``'s own open over a fresh ``OverlayFileSystem`` (a
/// running collector's store read as it is, its lock left alone, nothing written), each OTLP
/// record mapped back to a log record (the inverse of the forwarder's `LogRecordMapping`).
///
/// The mapping: the time (else the observed time); the level from the severity's range
/// (1–4 trace, 5–8 debug, 9 info, 10–12 notice, 13–16 warning, 17–20 error, 21–24
/// critical; unspecified info); the label from `log.label` (else the scope's name); the
/// message from the body; `log.source` and the code attributes (`code.file.path`,
/// `code.function.name`, `code.line.number`, and the names they replaced) to the source and
/// code location; every other attribute to the metadata; the sequence is the record's place
/// in the store, from 1.
enum CollectorLogReader {
  /// The collector's store in `directory`, opened over an overlay, or `nil` when it cannot be
  /// opened as one. Whether a directory is one is ``JournalContent``'s to tell
  /// (``SpoolLocation/readsCollector(_:)``).
  static func open(_ directory: String) -> CollectorArchive? {
    try? CollectorArchive.open(
      directory: directory, fileSystem: OverlayFileSystem(),
      options: JournalExamination.options(
        maxRecordSize: CollectorArchive.maxRecordBytes, salvage: false))
  }

  /// The collector's store at `location`, for a command told (or that found) it is one.
  ///
  /// - Throws: ``CommandFailure`` with ``ExitStatus/noStore`` when it cannot be opened as one.
  static func open(_ location: SpoolLocation) throws(CommandFailure) -> CollectorArchive {
    guard let archive = open(location.logs) else {
      throw CommandFailure(
        .noStore, "\(location.given): cannot be read as the example collector's store")
    }
    return archive
  }

  /// Hands each log record of `archive` to `body` in the order stored, numbered from 1.
  ///
  /// - Throws: The journal's read errors.
  static func forEachRecord(in archive: CollectorArchive, _ body: (LogRecord) -> Void)
    throws(StoreError)
  {
    var sequence: UInt64 = 0
    try archive.forEachLogRecord { received in
      sequence += 1
      body(record(received, sequence: sequence))
    }
  }

  /// The log record `received` stands for.
  static func record(_ received: ReceivedLogRecord, sequence: UInt64) -> LogRecord {
    let otlp = received.record
    let time = otlp.timeUnixNano != 0 ? otlp.timeUnixNano : otlp.observedTimeUnixNano
    var record = LogRecord(
      sequence: sequence, timeNanoseconds: Int64(clamping: time),
      level: level(otlp.severityNumber.rawValue), label: received.scope?.name ?? "",
      message: otlp.body.map(text) ?? "")
    for attribute in otlp.attributes {
      switch attribute.key {
      case "log.label": record.label = text(attribute.value)
      case "log.source": record.source = text(attribute.value)
      case "code.file.path", "code.filepath": record.file = text(attribute.value)
      case "code.function.name", "code.function": record.function = text(attribute.value)
      case "code.line.number", "code.lineno":
        if case .int(let line) = attribute.value { record.line = UInt(clamping: line) }
      case "stoic.sequence": continue
      default: record.metadata[attribute.key] = metadata(attribute.value)
      }
    }
    return record
  }

  /// The level of an OTLP severity number.
  static func level(_ severity: Int32) -> LogLevel {
    switch severity {
    case 1...4: .trace
    case 5...8: .debug
    case 10...12: .notice
    case 13...16: .warning
    case 17...20: .error
    case 21...: .critical
    default: .info
    }
  }

  private static func text(_ value: OTLP.AnyValue) -> String {
    switch value {
    case .empty: ""
    case .string(let string): string
    case .bool(let bool): String(bool)
    case .int(let int): String(int)
    case .double(let double): String(double)
    case .bytes(let bytes): bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    case .array, .kvlist: metadata(value).description
    }
  }

  private static func metadata(_ value: OTLP.AnyValue) -> LogMetadataValue {
    switch value {
    case .array(let values): .array(values.map(metadata))
    case .kvlist(let pairs):
      .dictionary(Dictionary(pairs.map { ($0.key, metadata($0.value)) }) { _, last in last })
    case .string(let string): .string(string)
    default: .stringConvertible(text(value))
    }
  }
}
