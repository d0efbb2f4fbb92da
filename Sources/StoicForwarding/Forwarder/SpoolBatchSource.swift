public import StoicStore
public import StoicTelemetry

/// Forms batches over a spool's records and reads them back as OTLP requests. Every method
/// blocks on the disk: the ``Forwarder`` calls them on a `StoicStore/BlockingExecutor`.
///
/// Formation is deterministic: from a given first sequence, a batch takes records in order
/// until the next one would pass ``ForwarderOptions/maxRecords`` or
/// ``ForwarderOptions/maxBytes`` or the durable end of the spool. The request read back for a
/// range depends only on the range's records and the options, so a batch re-formed after a
/// restart has the same key and the same body.
public struct SpoolBatchSource: Sendable {
  /// The spool read.
  public let spool: TelemetrySpool
  let maxRecords: Int
  let maxBytes: Int
  let resource: OTLP.Resource
  let scope: OTLP.InstrumentationScope
  let codeAttributes: ForwarderOptions.CodeAttributes
  let traceContext: TraceContextKeys?

  /// A source over `spool` with the batch limits, resource and scope of `options`.
  public init(spool: TelemetrySpool, options: ForwarderOptions) {
    self.spool = spool
    maxRecords = options.maxRecords
    maxBytes = options.maxBytes
    var attributes = options.resourceAttributes.map { OTLP.KeyValue($0.0, .string($0.1)) }
    if !attributes.contains(where: { $0.key == "service.instance.id" }) {
      attributes.append(OTLP.KeyValue("service.instance.id", .string(spool.identity.hex)))
    }
    for (key, value) in TelemetrySDK.resourceAttributes
    where !attributes.contains(where: { $0.key == key }) {
      attributes.append(OTLP.KeyValue(key, .string(value)))
    }
    resource = OTLP.Resource(attributes: attributes)
    scope = OTLP.InstrumentationScope(name: options.scopeName, version: TelemetrySDK.version)
    codeAttributes = options.codeAttributes
    traceContext = options.traceContext
  }

  /// The records at or below this sequence have left the stream's journal.
  public func lowWaterMark(_ stream: SpoolStream) -> UInt64 {
    switch stream {
    case .logs: spool.logs.lowWaterMark
    case .metrics: spool.metrics.lowWaterMark
    }
  }

  /// The stream's last sequence (0 for none).
  public func lastSequence(_ stream: SpoolStream) -> UInt64 {
    switch stream {
    case .logs: spool.logs.lastSequence
    case .metrics: spool.metrics.lastSequence
    }
  }

  /// The next batch from `start`, or nil when no durable record is there. Records in the kernel
  /// but not yet synced are synced first (a log flush, or a metrics flush, which also samples
  /// what changed): a batch never names a record a power loss could take back and a later
  /// record reuse the sequence of.
  ///
  /// - Throws: The spool's errors.
  public func formBatch(_ stream: SpoolStream, from start: UInt64) throws(StoreError) -> SpoolRange?
  {
    switch stream {
    case .logs: try formLogBatch(from: start)
    case .metrics: try formMetricsBatch(from: start)
    }
  }

  private func formLogBatch(from start: UInt64) throws(StoreError) -> SpoolRange? {
    let logs = spool.logs
    if logs.durableSequence < logs.lastSequence, logs.lastSequence >= start { try logs.flush() }
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

  private func formMetricsBatch(from start: UInt64) throws(StoreError) -> SpoolRange? {
    let metrics = spool.metrics
    // A flush runs after any flush in progress and syncs: every record up to the last sequence
    // is durable once it returns (it also samples what changed since).
    if metrics.lastSequence >= start { try metrics.flush() }
    let end = metrics.lastSequence
    guard end >= start else { return nil }
    let (bound, overflow) = start.addingReportingOverflow(UInt64(maxRecords - 1))
    let through = overflow ? end : min(end, bound)
    // Samples per journal record, in order: a batch takes whole records.
    var records: [(sequence: UInt64, samples: Int, bytes: Int)] = []
    try metrics.forEachSample(from: start, through: through) { (sequence, sample) in
      let size = Self.estimatedSize(sample)
      if let lastRecord = records.last, lastRecord.sequence == sequence {
        records[records.count - 1].samples += 1
        records[records.count - 1].bytes += size
      } else {
        records.append((sequence, 1, size))
      }
    }
    guard let firstRecord = records.first else {
      // Only unreadable records there: a batch of them, so they are counted and passed.
      return SpoolRange(stream: .metrics, first: start, last: through)
    }
    var last = firstRecord.sequence
    var samples = firstRecord.samples
    var bytes = firstRecord.bytes
    for record in records.dropFirst() {
      if samples + record.samples > maxRecords || bytes + record.bytes > maxBytes { break }
      samples += record.samples
      bytes += record.bytes
      last = record.sequence
    }
    return SpoolRange(stream: .metrics, first: max(start, firstRecord.sequence), last: last)
  }

  /// A sample's size as the batch limit counts it: its name, unit and dimensions, plus 32
  /// bytes of times and value, plus 8 per histogram bucket.
  static func estimatedSize(_ sample: MetricSample) -> Int {
    var size = 32 + sample.name.utf8.count + sample.unit.utf8.count
    for dimension in sample.dimensions {
      size += dimension.key.utf8.count + dimension.value.utf8.count
    }
    if case .histogram(let histogram) = sample.value { size += 16 * histogram.bucketCounts.count }
    return size
  }

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
    var records = 0
    var unreadable = 0
    var failure: StoreError?
    var metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []
    OTLPLogsProtobuf.writeRequest(resource: resource, scope: scope, to: &writer) { writer in
      do throws(StoreError) {
        try spool.logs.forEachEncodedRecord(from: range.first, through: range.last) {
          (sequence, bytes) in
          records += 1
          let slot = writer.beginMessage(OTLPLogsProtobuf.ScopeLogsField.logRecords)
          if let fields = LogRecordFormat.fields(of: bytes, metadata: &metadata) {
            LogRecordMapping.writeProtobuf(
              fields, sequence: sequence, metadata: metadata, codeAttributes: codeAttributes,
              traceContext: traceContext, to: &writer)
          } else {
            let entry = LogEntry(sequence: sequence, bytes: bytes)
            if case .unreadable = entry { unreadable += 1 }
            OTLPLogsProtobuf.write(otlp(entry), to: &writer)
          }
          writer.endMessage(slot)
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
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
    var records = 0
    var unreadable = 0
    var failure: StoreError?
    var metadata: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []
    OTLPLogsJSON.writeRequest(resource: resource, scope: scope, to: &writer) { writer in
      do throws(StoreError) {
        try spool.logs.forEachEncodedRecord(from: range.first, through: range.last) {
          (sequence, bytes) in
          records += 1
          if let fields = LogRecordFormat.fields(of: bytes, metadata: &metadata) {
            LogRecordMapping.writeJSON(
              fields, sequence: sequence, metadata: metadata, codeAttributes: codeAttributes,
              traceContext: traceContext, to: &writer)
          } else {
            let entry = LogEntry(sequence: sequence, bytes: bytes)
            if case .unreadable = entry { unreadable += 1 }
            OTLPLogsJSON.write(otlp(entry), to: &writer)
          }
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
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

  /// The samples of `range` as a request, with how many data points there are and how many
  /// journal records this build could not read (skipped).
  ///
  /// - Throws: The spool's errors.
  public func metricsRequest(_ range: SpoolRange) throws(StoreError) -> (
    request: OTLP.ExportMetricsServiceRequest, points: Int, unreadable: Int
  ) {
    var samples: [MetricSample] = []
    let summary = try spool.metrics.forEachSample(from: range.first, through: range.last) {
      (_, sample) in samples.append(sample)
    }
    let metrics = MetricSampleMapping.otlp(samples)
    let request = OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(
        resource: resource, scopeMetrics: [OTLP.ScopeMetrics(scope: scope, metrics: metrics)])
    ])
    return (request, request.dataPointCount, summary.newerRecords + summary.damagedRecords)
  }

  /// The records of `range` as a request body, encoded and compressed by `exporter`, with how
  /// many records it holds and how many of them this build could not read.
  ///
  /// - Throws: The spool's errors (an encoding error is returned in the body).
  func prepare(_ range: SpoolRange, exporter: OTLPExporter) throws(StoreError)
    -> BatchPrefetch.Prepared
  {
    switch range.stream {
    case .logs where exporter.configuration.encoding == .protobuf:
      let read = try logsProtobuf(range)
      return BatchPrefetch.Prepared(
        body: Result { () throws(ForwardingError) in
          try exporter.encode(protobuf: read.body, signal: .logs)
        }, records: read.records, unreadable: read.unreadable)
    case .logs:
      let read = try logsJSON(range)
      return BatchPrefetch.Prepared(
        body: Result { () throws(ForwardingError) in
          try exporter.encode(json: read.body, signal: .logs)
        }, records: read.records, unreadable: read.unreadable)
    case .metrics:
      let read = try metricsRequest(range)
      return BatchPrefetch.Prepared(
        body: Result { () throws(ForwardingError) in
          try exporter.encode(read.request, signal: .metrics)
        }, records: read.points, unreadable: read.unreadable)
    }
  }

  /// Releases the stream's records through `sequence` (acknowledged batches).
  ///
  /// - Throws: The spool's errors.
  public func release(_ stream: SpoolStream, through sequence: UInt64) throws(StoreError) {
    switch stream {
    case .logs: try spool.logs.dropThrough(sequence)
    case .metrics: try spool.metrics.dropThrough(sequence)
    }
  }
}
