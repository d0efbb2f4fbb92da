internal import StoicForwarding

/// What a collector has received: the counts behind `GET /stats`.
///
/// Batches, records, duplicates, key conflicts, unreadable entries and producers come from the
/// journal, so they survive a restart; ``requests``, ``rejectedRequests``,
/// ``rejectedByStatus``, ``faultsInjected`` and ``connections`` count since this process
/// started.
public struct CollectorStats: Sendable, Hashable {
  /// What one producer sent.
  public struct Producer: Sendable, Hashable {
    /// Batches stored that carried its records.
    public var batches = 0
    /// Log records stored.
    public var logRecords = 0
    /// Metric data points stored.
    public var dataPoints = 0
    /// Spans stored.
    public var spans = 0
    /// Replays of its batches answered from the stored response.
    public var duplicatesSuppressed = 0

    /// Creates zero counts.
    public init() {}
  }

  /// Requests stored (logs, metrics and traces).
  public var batches = 0
  /// Logs requests stored.
  public var logBatches = 0
  /// Metrics requests stored.
  public var metricBatches = 0
  /// Log records stored.
  public var logRecords = 0
  /// Metric data points stored.
  public var dataPoints = 0
  /// Traces requests stored.
  public var traceBatches = 0
  /// Spans stored.
  public var spans = 0
  /// Requests whose `Idempotency-Key` was already stored: answered with the stored response,
  /// their records not stored again.
  public var duplicatesSuppressed = 0
  /// Requests that reused a stored key with a different body (answered 422).
  public var keyConflicts = 0
  /// Journal entries that did not decode (kept, counted, skipped).
  public var unreadableEntries = 0
  /// OTLP requests received since start, whatever their answer.
  public var requests = 0
  /// Requests refused since start, whatever the stage: a connection over the limit (503), a
  /// head that does not parse (400, 414, 431, 501, 505), one too slow to arrive (408), and
  /// every 4xx after it (unauthorised, no such path, too large, undecodable, a key
  /// conflict…). Injected faults are not counted
  /// here but in ``faultsInjected``.
  public var rejectedRequests = 0
  /// ``rejectedRequests`` by the status they were answered with.
  public var rejectedByStatus: [Int: Int] = [:]
  /// Requests failed or dropped on purpose by ``CollectorFaults`` since start.
  public var faultsInjected = 0
  /// Connections accepted since start.
  public var connections = 0
  /// Per producer: the resource's `service.instance.id`, else its `service.name`, else
  /// `unknown`.
  public var producers: [String: Producer] = [:]

  /// Creates zero counts.
  public init() {}

  /// Counts a request refused with `status`.
  mutating func reject(_ status: Int) {
    rejectedRequests += 1
    rejectedByStatus[status, default: 0] += 1
  }

  /// The counts as a JSON object (the body of `GET /stats`), producers sorted by name.
  public var json: [UInt8] {
    var writer = JSONWriter()
    writer.object { object in
      let counts: [(StaticString, Int)] = [
        ("batches", batches), ("logBatches", logBatches), ("metricBatches", metricBatches),
        ("logRecords", logRecords), ("dataPoints", dataPoints),
        ("traceBatches", traceBatches), ("spans", spans),
        ("duplicatesSuppressed", duplicatesSuppressed), ("keyConflicts", keyConflicts),
        ("unreadableEntries", unreadableEntries), ("requests", requests),
        ("rejectedRequests", rejectedRequests), ("faultsInjected", faultsInjected),
        ("connections", connections),
      ]
      for (name, value) in counts {
        object.key(name)
        object.number(Int64(value))
      }
      object.key("rejectedByStatus")
      object.object { list in
        for (status, count) in rejectedByStatus.sorted(by: { $0.key < $1.key }) {
          list.dynamicKey(String(status))
          list.number(Int64(count))
        }
      }
      object.key("producers")
      object.object { list in
        for (name, producer) in producers.sorted(by: { $0.key < $1.key }) {
          list.dynamicKey(name)
          list.object { entry in
            entry.key("batches")
            entry.number(Int64(producer.batches))
            entry.key("logRecords")
            entry.number(Int64(producer.logRecords))
            entry.key("dataPoints")
            entry.number(Int64(producer.dataPoints))
            entry.key("spans")
            entry.number(Int64(producer.spans))
            entry.key("duplicatesSuppressed")
            entry.number(Int64(producer.duplicatesSuppressed))
          }
        }
      }
    }
    var bytes: [UInt8] = []
    writer.bytes.copy(appendingTo: &bytes)
    return bytes
  }
}
