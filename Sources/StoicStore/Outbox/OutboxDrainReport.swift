/// What one drain did.
public struct OutboxDrainReport: Sendable, Hashable {
  /// Entries delivered and acknowledged.
  public var delivered: Int = 0
  /// Entries parked after a permanent failure.
  public var parked: Int = 0
  /// Items the receiver rejected inside delivered batches (OTLP partial success); not retried.
  public var rejectedByReceiver: Int = 0
  /// Delivery attempts made (sends, including retries).
  public var attempts: Int = 0
  /// Why the drain stopped before the end of the queue (the transient failure that ended it),
  /// or nil when it walked the whole queue.
  public var haltedBecause: String?
  /// When the receiver asked not to be sent to before (milliseconds since the Unix epoch), if
  /// a `Retry-After` too long to wait out ended the drain.
  public var retryNotBefore: Int64?

  /// An empty report.
  public init() {}
}
