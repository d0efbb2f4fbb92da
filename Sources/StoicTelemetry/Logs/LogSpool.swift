public import StoicStore

/// The durable log spool: log records encoded straight into a journal's mapped tail, kept
/// within a byte limit and an age, read back in order by the forwarder and the command-line
/// tool. The ``RecordSpool`` of ``LogRecordFormat``: its guarantees are the record spool's, and
/// what is its own is the log call, the durable level and redaction
/// (``RecordSpool/log(level:label:message:metadata:source:file:function:line:)``), reading
/// decoded records (``RecordSpool/forEachRecord(from:through:_:)``) and the spool's own
/// events, written as log records with the label ``RecordSpool/eventLabel``.
///
/// When the log call returns a sequence, the record is in the kernel: a crash of the process
/// one instruction later loses nothing. Records at or above ``LogSpoolOptions/durableLevel``
/// are durable (synced) before it returns; the others within ``LogSpoolOptions/maxDelay``.
/// The log call never traps, never touches the network, and below the durable level never
/// waits for the disk.
public typealias LogSpool = RecordSpool<LogRecordFormat>

extension LogRecordFormat: SpoolRecordFormat {
  /// `"log"`.
  public static var recordKind: String { "log" }

  /// The time in the record's header (``LogRecordHeader/timeNanoseconds``).
  public static func timeNanoseconds(of record: UnsafeRawBufferPointer) -> Int64? {
    header(of: record)?.timeNanoseconds
  }

  /// Writes `event` as a log record: the label ``RecordSpool/eventLabel``, the event's name as
  /// the message, its level, its fields as string metadata, the source `stoic`.
  public static func write(event: StoreEvent, into spool: LogSpool) {
    var metadata = LogMetadata(minimumCapacity: event.fields.count)
    for (key, value) in event.fields { metadata[key] = .string(value) }
    _ = spool.write(
      LogRecordInput(
        level: LogLevel(event.level), label: LogSpool.eventLabel, message: event.name,
        metadata: metadata, source: "stoic", file: "", function: "", line: 0))
  }
}

extension RecordSpool where Format == LogRecordFormat {
  /// The label of the records the spool writes for its own events (`store.*`, `spool.*`):
  /// `stoic.spool`. Reserved: do not log with it.
  public static var eventLabel: String { "stoic.spool" }
}

extension LogLevel {
  /// The log level an event of `level` is written at.
  init(_ level: StoreEvent.Level) {
    switch level {
    case .debug: self = .debug
    case .info: self = .info
    case .warning: self = .warning
    case .error: self = .error
    }
  }
}
