public import StoicForwarding
public import StoicStore

/// What ``StoicService/shutdown(timeout:)`` did: what was delivered, what is left in the
/// spool for the next start, and what went wrong.
public struct StoicShutdownReport: Sendable {
  /// What the final drain delivered (empty without a forwarder).
  public var finalDrain = ForwardingReport()
  /// What every drain since ``Stoic/Stoic/bootstrap(directory:environment:configure:)`` delivered,
  /// the final one included.
  public var delivered = ForwardingReport()
  /// Log records left in the spool (durable), forwarded by the next run or `stoic drain`.
  ///
  /// It counts the spool's own event records too (label `LogSpool.eventLabel`): an event the
  /// shutdown itself raises after the final drain formed its last batch (the release of what it
  /// delivered, a journal's background work) is written into the spool and left for the next
  /// start, so a shutdown that delivered every record the app logged may report one or two.
  public var logRecordsLeft: UInt64 = 0
  /// Metrics journal records (each a sample of one or more series) left in the spool.
  public var metricRecordsLeft: UInt64 = 0
  /// The errors met (a flush, the final drain, a close); each step ran all the same.
  public var errors: [StoreError] = []
  /// How long the shutdown took.
  public var duration: Duration = .zero

  /// An empty report.
  public init() {}

  /// Whether nothing is left in the spool: everything logged and sampled was delivered.
  public var isEverythingDelivered: Bool { logRecordsLeft == 0 && metricRecordsLeft == 0 }
}
