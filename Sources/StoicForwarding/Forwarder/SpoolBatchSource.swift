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
    var attributes = Self.unique(options.resourceAttributes).map {
      OTLP.KeyValue($0.0, .string($0.1))
    }
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

  /// `pairs` with unique, non-empty keys, as OTLP requires: a key given again takes the later
  /// value (the specification's rule for setting an attribute twice) in the first one's place.
  static func unique(_ pairs: [(String, String)]) -> [(String, String)] {
    var result: [(String, String)] = []
    var index: [String: Int] = [:]
    for (key, value) in pairs where !key.isEmpty {
      if let at = index[key] {
        result[at].1 = value
      } else {
        index[key] = result.count
        result.append((key, value))
      }
    }
    return result
  }

  /// The records at or below this sequence have left the stream's journal.
  public func lowWaterMark(_ stream: SpoolStream) -> UInt64 {
    stream.forwarded.lowWaterMark(of: spool)
  }

  /// The stream's last sequence (0 for none).
  public func lastSequence(_ stream: SpoolStream) -> UInt64 {
    stream.forwarded.lastSequence(of: spool)
  }

  /// The next batch from `start`, or nil when no durable record is there. Records in the kernel
  /// but not yet synced are synced first (a log flush, or a metrics flush, which also samples
  /// what changed) when the durable ones do not fill a batch (`needsSync(durable:last:from:batch:)`):
  /// a batch never names a record a power loss could take back and a later record reuse the
  /// sequence of.
  ///
  /// - Throws: The spool's errors.
  public func formBatch(_ stream: SpoolStream, from start: UInt64) throws(StoreError) -> SpoolRange?
  {
    try stream.forwarded.formBatch(from: start, in: self)
  }

  /// The records of `range` as a request body, encoded and compressed by `exporter`, with how
  /// many records it holds and how many of them this build could not read.
  ///
  /// - Throws: The spool's errors (an encoding error is returned in the body).
  func prepare(_ range: SpoolRange, exporter: OTLPExporter) throws(StoreError)
    -> BatchPrefetch.Prepared
  {
    try range.stream.forwarded.prepare(range, from: self, exporter: exporter)
  }

  /// Releases the stream's records through `sequence` (acknowledged batches).
  ///
  /// - Throws: The spool's errors.
  public func release(_ stream: SpoolStream, through sequence: UInt64) throws(StoreError) {
    try stream.forwarded.release(spool, through: sequence)
  }

  /// Whether a drain's round forms a batch from `start`: always up to `roundEnd`, the stream's
  /// last sequence when the round started; past it only when `batch` records are there (by
  /// `last`, the stream's last sequence now). A round thus ends once it has sent what was
  /// logged before it began, instead of chasing a steady stream with a batch (and a sync, and
  /// outbox writes, and a checkpoint) per few records logged meanwhile, while a stream faster
  /// than the round still goes on in whole batches.
  static func formsBatch(from start: UInt64, roundEnd: UInt64, last: UInt64, batch: Int) -> Bool {
    if start <= roundEnd { return true }
    guard last >= start else { return false }
    return last - start >= UInt64(max(batch, 1) - 1)
  }

  /// Whether a batch from `start` needs a sync first: records after the durable ones are in
  /// the journal, and the durable ones from `start` on are fewer than `batch`. Under a steady
  /// stream the batch is formed from what the spool's own policy made durable, without a
  /// sync of its own: a sync per batch would also write the journal's zeros ahead of its tail
  /// to the disk each time (the benchmark's pipeline app, 100,000 records: 474 bytes written
  /// per record with a sync per batch, 326 to 340 without).
  static func needsSync(durable: UInt64, last: UInt64, from start: UInt64, batch: Int) -> Bool {
    guard durable < last, last >= start else { return false }
    let ready = durable >= start ? durable - start + 1 : 0
    return ready < UInt64(max(batch, 1))
  }
}
