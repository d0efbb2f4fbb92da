/// What one drain of a ``Forwarder`` did (or, as ``Forwarder/totals``, every drain since it
/// was opened).
public struct ForwardingReport: Sendable, Hashable {
  /// Batches formed and recorded in the outbox.
  public var batchesFormed = 0
  /// Batches the receiver accepted (2xx, or an OTLP partial success).
  public var batchesDelivered = 0
  /// The items (log records, data points, spans) in the delivered batches, by stream; a
  /// stream with none has no entry, so that reports of equal counts are equal.
  private var deliveredByStream: [SpoolStream: Int] = [:]
  /// Items the receiver rejected inside delivered batches (OTLP partial success).
  public var rejectedByReceiver = 0
  /// Batches parked after a permanent refusal (kept, with their records, until requeued or
  /// discarded).
  public var batchesParked = 0
  /// Sends made, retries included.
  public var attempts = 0
  /// Batches found delivered under their key before a restart, whose records had not left the
  /// spool yet: released without a send.
  public var batchesFoundDelivered = 0
  /// Batches whose records all left the spool (its quota or age limit) before they could be
  /// sent; the spool counts those records as dropped.
  public var batchesLost = 0
  /// Records this build could not decode, sent as opaque bytes (logs) or skipped and counted
  /// (metrics records).
  public var unreadableRecords = 0
  /// Records released from the spool after their batches were acknowledged.
  public var recordsReleased: UInt64 = 0
  /// Why the last drain stopped before the end (a transient failure), or nil.
  public var haltedBecause: String?
  /// When the receiver asked not to be sent to before (milliseconds since the Unix epoch).
  public var retryNotBefore: Int64?
  /// Whether the last drain stopped because the receiver refused in a way that sending again
  /// unchanged will not fix: the classifier's halt (OTLP: 401 or 403, the credentials
  /// refused). ``haltedBecause`` says which answer.
  public var haltedByReceiver = false
  /// The signals a receiver's `Retry-After` holds until ``retryNotBefore``: their batches wait
  /// in line, and the other signals' went on (one signal's answer never holds up the other).
  public var held: Set<SpoolStream> = []
  /// Whether the last drain stopped only because every batch left is of a held signal
  /// (``held``): everything else was sent. Not a failure: the background loop keeps its
  /// interval for the other signals.
  public var stoppedOnlyByHold = false

  /// An empty report.
  public init() {}

  /// The items of `stream` in the delivered batches (its log records, data points or spans):
  /// how a signal's count is read, a signal added later included.
  public func delivered(_ stream: SpoolStream) -> Int {
    deliveredByStream[stream] ?? 0
  }

  /// Adds `count` delivered items of `stream`.
  public mutating func addDelivered(_ count: Int, of stream: SpoolStream) {
    let total = delivered(stream) &+ count
    deliveredByStream[stream] = total == 0 ? nil : total
  }

  /// Log records in the delivered batches: ``delivered(_:)`` of ``SpoolStream/logs``.
  public var logRecordsDelivered: Int {
    get { delivered(.logs) }
    set { addDelivered(newValue &- delivered(.logs), of: .logs) }
  }

  /// Metric data points in the delivered batches: ``delivered(_:)`` of ``SpoolStream/metrics``.
  public var dataPointsDelivered: Int {
    get { delivered(.metrics) }
    set { addDelivered(newValue &- delivered(.metrics), of: .metrics) }
  }

  /// Spans in the delivered batches: ``delivered(_:)`` of ``SpoolStream/traces``.
  public var spansDelivered: Int {
    get { delivered(.traces) }
    set { addDelivered(newValue &- delivered(.traces), of: .traces) }
  }

  /// Log records, data points and spans delivered: every stream's items.
  public var recordsDelivered: Int { deliveredByStream.values.reduce(0, &+) }

  /// Adds `other`'s counts to this one's and takes its halt.
  public mutating func add(_ other: ForwardingReport) {
    batchesFormed += other.batchesFormed
    batchesDelivered += other.batchesDelivered
    for (stream, count) in other.deliveredByStream { addDelivered(count, of: stream) }
    rejectedByReceiver += other.rejectedByReceiver
    batchesParked += other.batchesParked
    attempts += other.attempts
    batchesFoundDelivered += other.batchesFoundDelivered
    batchesLost += other.batchesLost
    unreadableRecords += other.unreadableRecords
    recordsReleased += other.recordsReleased
    haltedBecause = other.haltedBecause
    retryNotBefore = other.retryNotBefore
    haltedByReceiver = other.haltedByReceiver
    held = other.held
    stoppedOnlyByHold = other.stoppedOnlyByHold
  }
}
