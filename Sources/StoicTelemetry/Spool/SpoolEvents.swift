public import StoicStore

/// The events of the telemetry spool: its log spool, its metrics spool and the spool around
/// them. Every name starts with `spool.`.
///
/// Each is raised from its definition with `EventSink.emit(_:_:)`; ``catalog`` lists them all.
/// The spool also passes on the storage core's events (`StoreEvents`) of its
/// journals; ``TelemetrySpool/eventCatalog-type.property`` combines both.
public enum SpoolEvents {
  /// Every event of this layer: the spool's and the log spool's, then the metrics spool's.
  public static let catalog = EventCatalog(logEntries + metricsEntries)
}
