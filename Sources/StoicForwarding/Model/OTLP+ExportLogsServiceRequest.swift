extension OTLP {
  /// The body of a `POST /v1/logs`:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest`.
  public struct ExportLogsServiceRequest: Sendable, Hashable {
    /// The records, by resource.
    public var resourceLogs: [ResourceLogs]

    /// Creates a request.
    public init(resourceLogs: [ResourceLogs] = []) {
      self.resourceLogs = resourceLogs
    }

    /// How many log records the request carries.
    public var logRecordCount: Int {
      resourceLogs.reduce(0) { total, resource in
        resource.scopeLogs.reduce(total) { $0 + $1.logRecords.count }
      }
    }
  }
}
