public import StoicStore

/// The events of the telemetry spool: its log spool, its metrics spool and the spool around
/// them. Every name starts with `spool.`.
///
/// Each is raised from its definition with `EventSink.emit(_:_:)`; ``catalog`` lists them all.
/// The spool also passes on the storage core's events that its layers raise
/// (``storeCatalog``); ``TelemetrySpool/eventCatalog-type.property`` combines both.
public enum SpoolEvents {
  /// Every event of this layer: the spool's and the log spool's, then the metrics spool's.
  public static let catalog = EventCatalog(logEntries + metricsEntries)

  /// The storage core's events (`StoreEvents`) a spool's layers raise and the spool passes on:
  /// those of the file system, `AtomicFile` (the identity file, the drop counters, the segment
  /// summaries) and the journals. Not the outbox's: a spool keeps none.
  public static let storeCatalog = EventCatalog([
    StoreEvents.corruptQuarantined,
    StoreEvents.recoveredPrevious,
    StoreEvents.tempRemoved,
    StoreEvents.fullSyncUnavailable,
    StoreEvents.journalTruncated,
    StoreEvents.journalCompacted,
    StoreEvents.journalCorruptionDetected,
    StoreEvents.journalMappingUnavailable,
    StoreEvents.journalSalvaged,
    StoreEvents.journalSegmentOversized,
  ])
}
