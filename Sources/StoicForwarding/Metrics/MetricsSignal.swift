public import StoicStore
internal import StoicTelemetry

/// The metrics signal as the forwarder sends it: the metrics spool's journal, one journal
/// record per sample of every changed series, sent as `ExportMetricsServiceRequest` to
/// `/v1/metrics`. A batch takes whole journal records and counts data points.
enum MetricsSignal: ForwardedSignal {
  typealias Response = OTLP.ExportMetricsServiceResponse

  static var stream: SpoolStream { .metrics }
  static var signal: OTLPSignal { .metrics }
  static var name: String { "metrics" }
  static var keyTag: String { "m" }
  static var defaultPath: String { "/v1/metrics" }

  static func lowWaterMark(of spool: TelemetrySpool) -> UInt64 { spool.metrics.lowWaterMark }

  static func lastSequence(of spool: TelemetrySpool) -> UInt64 { spool.metrics.lastSequence }

  static func formBatch(from start: UInt64, in source: SpoolBatchSource) throws(StoreError)
    -> SpoolRange?
  {
    let metrics = source.spool.metrics
    let maxRecords = source.maxRecords
    let maxBytes = source.maxBytes
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
      let size = estimatedSize(sample)
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

  static func prepare(_ range: SpoolRange, from source: SpoolBatchSource, exporter: OTLPExporter)
    throws(StoreError) -> BatchPrefetch.Prepared
  {
    let read = try source.metricsRequest(range)
    return BatchPrefetch.Prepared(
      body: Result { () throws(ForwardingError) in
        try exporter.encode(read.request, signal: signal)
      }, records: read.points, unreadable: read.unreadable)
  }

  static func release(_ spool: TelemetrySpool, through sequence: UInt64) throws(StoreError) {
    try spool.metrics.dropThrough(sequence)
  }

}

extension SpoolBatchSource {
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
}
