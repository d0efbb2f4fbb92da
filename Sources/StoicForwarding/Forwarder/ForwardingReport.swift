/// What one drain of a ``Forwarder`` did (or, as ``Forwarder/totals``, every drain since it
/// was opened).
public struct ForwardingReport: Sendable, Hashable {
  /// Batches formed and recorded in the outbox.
  public var batchesFormed = 0
  /// Batches the receiver accepted (2xx, or an OTLP partial success).
  public var batchesDelivered = 0
  /// Log records in the delivered batches.
  public var logRecordsDelivered = 0
  /// Metric data points in the delivered batches.
  public var dataPointsDelivered = 0
  /// Spans in the delivered batches.
  public var spansDelivered = 0
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

  /// Log records, data points and spans delivered.
  public var recordsDelivered: Int { logRecordsDelivered + dataPointsDelivered + spansDelivered }

  /// Adds `other`'s counts to this one's and takes its halt.
  public mutating func add(_ other: ForwardingReport) {
    batchesFormed += other.batchesFormed
    batchesDelivered += other.batchesDelivered
    logRecordsDelivered += other.logRecordsDelivered
    dataPointsDelivered += other.dataPointsDelivered
    spansDelivered += other.spansDelivered
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
