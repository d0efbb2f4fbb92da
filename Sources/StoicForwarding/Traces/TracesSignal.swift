public import StoicStore
internal import StoicTelemetry

/// The traces signal as the forwarder sends it: the span spool's journal, where each span has a
/// start record and, once it ended, an end record holding the whole span; each end is sent as
/// a `Span` of an `ExportTraceServiceRequest` to `/v1/traces`, starts are skipped. A batch ends
/// at its last end (the starts after it wait for theirs), and is released with
/// `SpanSpool.dropEndedThrough(_:)`, which carries the starts of spans still open past the
/// drop, so that a crash after it still ends them.
enum TracesSignal: ForwardedSignal {
  typealias Response = OTLP.ExportTraceServiceResponse

  static var stream: SpoolStream { .traces }
  static var signal: OTLPSignal { .traces }
  static var name: String { "traces" }
  static var keyTag: String { "t" }
  static var defaultPath: String { "/v1/traces" }

  static func lowWaterMark(of spool: TelemetrySpool) -> UInt64 { spool.spans?.lowWaterMark ?? 0 }

  static func lastSequence(of spool: TelemetrySpool) -> UInt64 { spool.spans?.lastSequence ?? 0 }

  /// The next batch from `start`: up to ``ForwarderOptions/maxRecords`` ends (and records
  /// this build cannot read) within ``ForwarderOptions/maxBytes``, with the starts among
  /// them, ending at its last end; `nil` when only starts are there (their spans are still
  /// open: they wait). Starts do not count against the limits, so a run of open spans never
  /// holds up the ends after it.
  static func formBatch(from start: UInt64, in source: SpoolBatchSource) throws(StoreError)
    -> SpoolRange?
  {
    guard let spans = source.spool.spans else { return nil }
    let maxRecords = source.maxRecords
    let maxBytes = source.maxBytes
    if SpoolBatchSource.needsSync(
      durable: spans.durableSequence, last: spans.lastSequence, from: start, batch: maxRecords)
    {
      try spans.flush()
    }
    let durable = spans.durableSequence
    guard durable >= start else { return nil }
    var first: UInt64?
    var lastEnd: UInt64?
    var count = 0
    var bytes = 0
    do throws(StoreError) {
      try spans.forEachEncodedRecord(from: start, through: durable) {
        (sequence, encoded) throws(StoreError) in
        if first == nil { first = sequence }
        // Anything but a start of this build's format is sent (an end) or counted (unreadable).
        let isStart =
          encoded.first == SpanRecordFormat.version
          && SpanRecordFormat.header(of: encoded)?.recordKind == SpanRecordFormat.recordKindStart
        guard !isStart else { return }
        if count > 0, count >= maxRecords || bytes + encoded.count > maxBytes {
          throw StoreError(.other, "the batch is full", cause: BatchFull())
        }
        count += 1
        bytes += encoded.count
        lastEnd = sequence
      }
    } catch  where error.cause is BatchFull {
      // The batch ends before this record.
    }
    guard let first, let lastEnd else { return nil }
    return SpoolRange(stream: .traces, first: first, last: lastEnd)
  }

  /// Ends a read once a batch is full.
  struct BatchFull: Error {}

  static func prepare(_ range: SpoolRange, from source: SpoolBatchSource, exporter: OTLPExporter)
    throws(StoreError) -> BatchPrefetch.Prepared
  {
    let read = try source.tracesRequest(range)
    return BatchPrefetch.Prepared(
      body: Result { () throws(ForwardingError) in
        try exporter.encode(read.request, signal: signal)
      }, records: read.request.spanCount, unreadable: read.unreadable)
  }

  static func release(_ spool: TelemetrySpool, through sequence: UInt64) throws(StoreError) {
    try spool.spans?.dropEndedThrough(sequence)
  }

}

extension SpoolBatchSource {
  /// The ended spans of `range` as a request, with how many records this build could not
  /// read (skipped and counted).
  ///
  /// - Throws: The spool's errors.
  public func tracesRequest(_ range: SpoolRange) throws(StoreError) -> (
    request: OTLP.ExportTraceServiceRequest, unreadable: Int
  ) {
    var spans: [OTLP.Span] = []
    var unreadable = 0
    try spool.spans?.forEachSpanRecord(from: range.first, through: range.last) { (_, record) in
      switch record {
      case .success(.end(let end)): spans.append(SpanMapping.otlp(end))
      case .success(.start): break
      case .failure: unreadable += 1
      }
    }
    let request = OTLP.ExportTraceServiceRequest(resourceSpans: [
      OTLP.ResourceSpans(
        resource: resource, scopeSpans: [OTLP.ScopeSpans(scope: scope, spans: spans)])
    ])
    return (request, unreadable)
  }
}
