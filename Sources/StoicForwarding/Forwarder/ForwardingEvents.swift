public import StoicStore

/// The events of the forwarding layer. Every name starts with `forwarding.`; ``catalog``
/// lists them. None carries a header value or a record's content.
public enum ForwardingEvents {
  /// A batch was refused permanently (an answer OTLP says not to retry): parked with its
  /// records.
  public static let batchParked = EventDefinition(
    "forwarding.batch_parked", level: .error,
    summary:
      "The receiver refused a batch permanently; it is parked with its records (shown by "
      + "`stoic inspect` on the spool's `forwarding` folder) and the rest go on.",
    fields: ["key", "range", "reason"])

  /// The receiver accepted a batch but rejected some of its items (OTLP partial success).
  public static let recordsRejected = EventDefinition(
    "forwarding.records_rejected", level: .warning,
    summary:
      "The receiver accepted a batch but rejected `rejected` of its items (OTLP partial "
      + "success); the batch is not sent again.",
    fields: ["key", "rejected", "message"])

  /// A batch's records left the spool (its quota or age limit) before they could be sent.
  public static let batchLost = EventDefinition(
    "forwarding.batch_lost", level: .warning,
    summary:
      "A batch's records left the spool through its quota or age limit before they were sent "
      + "(the spool counts them as dropped); the batch is discarded.",
    fields: ["key", "range"])

  /// A batch delivered before a restart was found by its key and released without a send.
  public static let batchFoundDelivered = EventDefinition(
    "forwarding.batch_found_delivered", level: .info,
    summary:
      "A batch acknowledged before a restart (its records still in the spool) was recognised "
      + "by its key and released without being sent again.",
    fields: ["key", "range"])

  /// Records this build could not decode were met in a batch.
  public static let recordsUnreadable = EventDefinition(
    "forwarding.records_unreadable", level: .warning,
    summary:
      "A batch held records this build cannot decode: log records go as opaque bytes with "
      + "`stoic.unreadable`, metrics records are skipped and counted.",
    fields: ["key", "count"])

  /// A drain could not finish: the endpoint unreachable, refusing for now, or a disk error.
  public static let drainHalted = EventDefinition(
    "forwarding.drain_halted", level: .info,
    summary:
      "A drain stopped before the end (`reason`); the background loop tries again after "
      + "`retryIn`.",
    fields: ["reason", "retryIn"])

  /// The metrics sample a drain takes before forming batches failed.
  public static let sampleFailed = EventDefinition(
    "forwarding.sample_failed", level: .warning,
    summary:
      "The metrics sample a drain takes first failed (`reason`); the drain goes on with the "
      + "samples already in the spool, and the next flush samples the values again.",
    fields: ["reason"])

  /// The receiver refused the forwarder's credentials (HTTP 401 or 403).
  public static let unauthorized = EventDefinition(
    "forwarding.unauthorized", level: .error,
    summary:
      "The receiver refused the credentials (HTTP `status`): the batch stays in line with the "
      + "answer as its last error, the drain stops and the background loop backs off. Check "
      + "the exporter's headers (`OTEL_EXPORTER_OTLP_HEADERS`).",
    fields: ["key", "status"],
    hint:
      "the receiver refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS; the records are kept"
  )

  /// An `OTEL_*` variable's value is invalid and was ignored, as if unset.
  public static let settingIgnored = EventDefinition(
    "forwarding.setting_ignored", level: .warning,
    summary:
      "An `OTEL_*` variable's value does not parse or asks for what Stoic cannot do; it is "
      + "ignored as if unset (the OpenTelemetry rule: telemetry never stops the app), and the "
      + "spool records as before. `reason` names the variable, never its value.",
    fields: ["variable", "reason"],
    hint: "an OTEL_* value is invalid and ignored as if unset")

  /// Every event of this layer.
  public static let catalog = EventCatalog([
    batchParked, recordsRejected, batchLost, batchFoundDelivered, recordsUnreadable,
    drainHalted, sampleFailed, unauthorized, settingIgnored,
  ])
}
