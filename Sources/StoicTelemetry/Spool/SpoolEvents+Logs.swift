public import StoicStore

extension SpoolEvents {
  /// Records were dropped and counted: by the quota or the age limit, after a disk error, or
  /// because they could not be encoded.
  public static let recordsDropped = EventDefinition(
    "spool.records_dropped", level: .warning,
    summary:
      "Records were dropped and counted (`reason`: quota, age, disk_error, encoding); the "
      + "counts survive restarts.",
    fields: ["reason", "count", "total"])

  /// The spool's and the log spool's events, in ``catalog`` order.
  static let logEntries: [EventDefinition] = [
    recordsDropped
  ]
}
