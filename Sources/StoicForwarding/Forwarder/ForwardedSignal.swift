internal import StoicStore
internal import StoicTelemetry

/// What the forwarder needs of one signal: where its records are in the spool, how a batch of
/// them is formed, read back and encoded, how the receiver's answer to it is read, and how its
/// acknowledged records leave the spool. One caseless conformer per signal lives in that
/// signal's folder (``LogsSignal`` in `Logs/`, ``MetricsSignal`` in `Metrics/`,
/// ``TracesSignal`` in `Traces/`), beside its OTLP model and encodings; `SpoolStream.forwarded`
/// and `OTLPSignal.forwarded` map the persisted tags to it, in one place each. Beyond them the
/// forwarder names a signal in two places only: `Forwarder.sampleMetrics()` (the metrics
/// spool's sample a drain takes first) and ``ForwardingReport``'s named counts
/// (``ForwardingReport/logRecordsDelivered`` and its siblings, read through
/// ``ForwardingReport/delivered(_:)``, which counts every stream without naming it).
///
/// Every method that reads the spool blocks on the disk: the ``Forwarder`` calls them on a
/// `StoicStore/BlockingExecutor` (through ``SpoolBatchSource``).
protocol ForwardedSignal {
  /// The signal's `Export…ServiceResponse`, whose partial success a success body may hold.
  associatedtype Response: OTLPExportServiceResponse

  /// The stream's persisted tag (in a ``SpoolRange`` and its outbox bytes).
  static var stream: SpoolStream { get }
  /// The OTLP signal its batches are sent as.
  static var signal: OTLPSignal { get }
  /// `logs`, `metrics` or `traces`: the stream's name in a range's description.
  static var name: String { get }
  /// The one-letter tag the stream has in an idempotency key (stable: a key must not change
  /// across versions).
  static var keyTag: String { get }
  /// OTLP's default path for the signal (`/v1/logs`).
  static var defaultPath: String { get }

  /// The records at or below this sequence have left the stream's journal.
  static func lowWaterMark(of spool: TelemetrySpool) -> UInt64
  /// The stream's last sequence (0 for none).
  static func lastSequence(of spool: TelemetrySpool) -> UInt64
  /// The next batch from `start` under `source`'s limits, or nil when no durable record is
  /// there (see ``SpoolBatchSource/formBatch(_:from:)``).
  ///
  /// - Throws: The spool's errors.
  static func formBatch(from start: UInt64, in source: SpoolBatchSource) throws(StoreError)
    -> SpoolRange?
  /// The records of `range` as a request body in `exporter`'s encoding and compression, with
  /// how many records (log records, data points) it holds and how many of them this build
  /// could not read.
  ///
  /// - Throws: The spool's errors (an encoding error is returned in the body).
  static func prepare(_ range: SpoolRange, from source: SpoolBatchSource, exporter: OTLPExporter)
    throws(StoreError) -> BatchPrefetch.Prepared
  /// Releases the stream's records through `sequence` (acknowledged batches).
  ///
  /// - Throws: The spool's errors.
  static func release(_ spool: TelemetrySpool, through sequence: UInt64) throws(StoreError)
}

extension ForwardedSignal {
  /// The partial success (rejected count, message) a success body of the signal's
  /// ``Response`` holds, or nil when it holds none or does not decode.
  static func partialSuccess(in body: [UInt8], as encoding: OTLPEncoding) -> (
    count: Int64, message: String
  )? {
    (try? Response(decoding: body, as: encoding))?.rejection
  }
}
