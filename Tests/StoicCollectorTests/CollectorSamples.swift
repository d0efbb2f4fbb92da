import StoicForwarding

/// Requests for the collector tests: log records numbered by a `seq` attribute.
enum CollectorSamples {
  /// A logs request carrying records `seqs` from producer `instance`.
  static func logs(_ seqs: Range<Int>, instance: String = "instance-1")
    -> OTLP.ExportLogsServiceRequest
  {
    OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.name", .string("collector-test")),
          OTLP.KeyValue("service.instance.id", .string(instance)),
        ]),
        scopeLogs: [
          OTLP.ScopeLogs(
            scope: OTLP.InstrumentationScope(name: "test"),
            logRecords: seqs.map { seq in
              OTLP.LogRecord(
                timeUnixNano: 1_700_000_000_000_000_000 + UInt64(seq), severityNumber: .info,
                severityText: "info", body: .string("record number \(seq) of the test"),
                attributes: [
                  OTLP.KeyValue("seq", .int(Int64(seq))),
                  OTLP.KeyValue("component", .string("test")),
                ])
            })
        ])
    ])
  }

  /// A metrics request with one counter point.
  static func metrics(value: Int64, instance: String = "instance-1")
    -> OTLP.ExportMetricsServiceRequest
  {
    OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.instance.id", .string(instance))
        ]),
        scopeMetrics: [
          OTLP.ScopeMetrics(metrics: [
            OTLP.Metric(
              name: "records.written",
              data: .sum(
                OTLP.Sum(dataPoints: [OTLP.NumberDataPoint(timeUnixNano: 1, value: .int(value))])))
          ])
        ])
    ])
  }

  /// The `seq` attribute of a record.
  static func seq(of record: OTLP.LogRecord) -> Int? {
    if case .int(let value) = record.attribute("seq") { return Int(value) }
    return nil
  }
}
