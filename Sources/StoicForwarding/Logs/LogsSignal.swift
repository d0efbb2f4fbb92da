public import StoicStore
internal import StoicTelemetry

/// The logs signal as the forwarder sends it: the log spool's journal, one journal record per
/// log record, sent as `ExportLogsServiceRequest` to `/v1/logs` (protobuf or JSON, written straight
/// from the spool's encoded records).
enum LogsSignal: ForwardedSignal {
  typealias Response = OTLP.ExportLogsServiceResponse

  static var stream: SpoolStream { .logs }
  static var signal: OTLPSignal { .logs }
  static var name: String { "logs" }
  static var keyTag: String { "l" }
  static var defaultPath: String { "/v1/logs" }

  static func lowWaterMark(of spool: TelemetrySpool) -> UInt64 { spool.logs.lowWaterMark }

  static func lastSequence(of spool: TelemetrySpool) -> UInt64 { spool.logs.lastSequence }

  static func formBatch(from start: UInt64, in source: SpoolBatchSource) throws(StoreError)
    -> SpoolRange?
  {
    let logs = source.spool.logs
    let maxRecords = source.maxRecords
    let maxBytes = source.maxBytes
    // A sync only when what is durable from `start` does not fill a batch: under a steady
    // stream the spool's own policy syncs, and a sync per batch would write the journal's
    // zeros ahead of its tail to the disk each time (about 1.2× the records' own bytes).
    if SpoolBatchSource.needsSync(
      durable: logs.durableSequence, last: logs.lastSequence, from: start, batch: maxRecords)
    {
      try logs.flush()
    }
    let durable = logs.durableSequence
    guard durable >= start else { return nil }
    let (bound, overflow) = start.addingReportingOverflow(UInt64(maxRecords - 1))
    let through = overflow ? durable : min(durable, bound)
    var first: UInt64?
    var last: UInt64 = 0
    var count = 0
    var bytes = 0
    var full = false
    try logs.forEachEncodedRecord(from: start, through: through) { (sequence, encoded) in
      guard !full else { return }
      if count > 0, count >= maxRecords || bytes + encoded.count > maxBytes {
        full = true
        return
      }
      if first == nil { first = sequence }
      last = sequence
      count += 1
      bytes += encoded.count
    }
    return first.map { SpoolRange(stream: .logs, first: $0, last: last) }
  }

  static func prepare(_ range: SpoolRange, from source: SpoolBatchSource, exporter: OTLPExporter)
    throws(StoreError) -> BatchPrefetch.Prepared
  {
    if exporter.configuration.encoding == .protobuf {
      let read = try source.logsProtobuf(range)
      return BatchPrefetch.Prepared(
        body: Result { () throws(ForwardingError) in
          try exporter.encode(protobuf: read.body, signal: signal)
        }, records: read.records, unreadable: read.unreadable)
    }
    let read = try source.logsJSON(range)
    return BatchPrefetch.Prepared(
      body: Result { () throws(ForwardingError) in
        try exporter.encode(json: read.body, signal: signal)
      }, records: read.records, unreadable: read.unreadable)
  }

  static func release(_ spool: TelemetrySpool, through sequence: UInt64) throws(StoreError) {
    try spool.logs.dropThrough(sequence)
  }

}

extension SpoolBatchSource {
  /// The log records of `range` as a request, with how many there are and how many of them
  /// this build could not decode (sent as opaque bytes with the attribute `stoic.unreadable`).
  ///
  /// - Throws: The spool's errors.
  public func logsRequest(_ range: SpoolRange) throws(StoreError) -> (
    request: OTLP.ExportLogsServiceRequest, records: Int, unreadable: Int
  ) {
    var records: [OTLP.LogRecord] = []
    var unreadable = 0
    try spool.logs.forEachRecord(from: range.first, through: range.last) { entry in
      if case .unreadable = entry { unreadable += 1 }
      records.append(otlp(entry))
    }
    let request = OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(
        resource: resource, scopeLogs: [OTLP.ScopeLogs(scope: scope, logRecords: records)])
    ])
    return (request, records.count, unreadable)
  }

  /// The OTLP record of a spooled entry: its mapping, or for one this build could not decode,
  /// its bytes with the attribute `stoic.unreadable`.
  func otlp(_ entry: LogEntry) -> OTLP.LogRecord {
    switch entry {
    case .record(let record):
      return LogRecordMapping.otlp(
        record, codeAttributes: codeAttributes, traceContext: traceContext)
    case .unreadable(let entry):
      return OTLP.LogRecord(
        body: .bytes(entry.bytes),
        attributes: [
          OTLP.KeyValue("stoic.unreadable", .string("\(entry.reason)")),
          OTLP.KeyValue("stoic.sequence", .int(Int64(clamping: entry.sequence))),
        ])
    }
  }

  /// Walks the log records of `range` for a body written straight from the spool's encoded
  /// records: `direct` gets each record with flat metadata as its fields (no `String`, no
  /// `OTLP.LogRecord`, ``LogRecordMapping``), `mapped` the OTLP record of any other, decoded
  /// and mapped as ``logsRequest(_:)`` does.
  ///
  /// - Returns: How many records there were and how many of them this build could not decode.
  /// - Throws: The spool's errors.
  private func forEachLogRecord(
    in range: SpoolRange,
    direct: (
      LogRecordFields, UInt64, [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)]
    ) -> Void,
    mapped: (OTLP.LogRecord) -> Void
  ) throws(StoreError) -> (records: Int, unreadable: Int) {
    var records = 0
    var unreadable = 0
    var metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []
    try spool.logs.forEachEncodedRecord(from: range.first, through: range.last) {
      (sequence, bytes) in
      records += 1
      if let fields = LogRecordFormat.fields(of: bytes, metadata: &metadata) {
        direct(fields, sequence, metadata)
      } else {
        let entry = LogEntry(sequence: sequence, bytes: bytes)
        if case .unreadable = entry { unreadable += 1 }
        mapped(otlp(entry))
      }
    }
    return (records, unreadable)
  }

  /// The log records of `range` as the protobuf of the request ``logsRequest(_:)`` gives,
  /// byte for byte, written straight from the spool's encoded records: a record with flat
  /// metadata goes from its bytes to protobuf without a `String` or an `OTLP.LogRecord`
  /// (``LogRecordMapping``); any other is decoded and mapped as ``logsRequest(_:)`` does.
  ///
  /// - Throws: The spool's errors.
  public func logsProtobuf(_ range: SpoolRange) throws(StoreError) -> (
    body: [UInt8], records: Int, unreadable: Int
  ) {
    var writer = ProtobufWriter(capacity: 64 << 10)
    var walked: Result<(records: Int, unreadable: Int), StoreError> = .success((0, 0))
    OTLPCommonProtobuf.writeRequest(resource: resource, scope: scope, to: &writer) { writer in
      walked = Result { () throws(StoreError) in
        try forEachLogRecord(
          in: range,
          direct: { fields, sequence, metadata in
            let slot = writer.beginMessage(OTLPCommonProtobuf.ScopeGroupField.items)
            LogRecordMapping.writeProtobuf(
              fields, sequence: sequence, metadata: metadata, codeAttributes: codeAttributes,
              traceContext: traceContext, to: &writer)
            writer.endMessage(slot)
          },
          mapped: { record in
            let slot = writer.beginMessage(OTLPCommonProtobuf.ScopeGroupField.items)
            OTLPLogsProtobuf.write(record, to: &writer)
            writer.endMessage(slot)
          })
      }
    }
    let (records, unreadable) = try walked.get()
    var body: [UInt8] = []
    body.reserveCapacity(writer.bytes.count)
    writer.bytes.copy(appendingTo: &body)
    return (body, records, unreadable)
  }

  /// The log records of `range` as the OTLP JSON of the request ``logsRequest(_:)`` gives,
  /// byte for byte, written straight from the spool's encoded records as ``logsProtobuf(_:)``
  /// writes protobuf (``LogRecordMapping``).
  ///
  /// - Throws: The spool's errors.
  public func logsJSON(_ range: SpoolRange) throws(StoreError) -> (
    body: [UInt8], records: Int, unreadable: Int
  ) {
    // About 1 KiB of JSON per record: room for the whole batch, so the buffer does not grow.
    let expected = range.last >= range.first ? range.last - range.first : 0
    var writer = JSONWriter(capacity: Int(min(expected, 16_383) + 1) << 10)
    var walked: Result<(records: Int, unreadable: Int), StoreError> = .success((0, 0))
    OTLPCommonJSON.writeRequest(
      OTLP.ResourceLogs.self, resource: resource, scope: scope, to: &writer
    ) { writer in
      walked = Result { () throws(StoreError) in
        try forEachLogRecord(
          in: range,
          direct: { fields, sequence, metadata in
            LogRecordMapping.writeJSON(
              fields, sequence: sequence, metadata: metadata, codeAttributes: codeAttributes,
              traceContext: traceContext, to: &writer)
          },
          mapped: { record in OTLPLogsJSON.write(record, to: &writer) })
      }
    }
    let (records, unreadable) = try walked.get()
    // The model's encoder leaves an empty `logRecords` out: a range with no record left is
    // written by it.
    guard records > 0 else {
      let read = try logsRequest(range)
      return (read.request.encoded(as: .json), read.records, read.unreadable)
    }
    var body: [UInt8] = []
    body.reserveCapacity(writer.bytes.count)
    writer.bytes.copy(appendingTo: &body)
    return (body, records, unreadable)
  }
}
