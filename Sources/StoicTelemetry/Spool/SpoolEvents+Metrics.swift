import StoicStore

extension SpoolEvents {
  /// The metrics spool's events, in ``catalog`` order.
  static let metricsEntries: [EventDefinition] = []
}
