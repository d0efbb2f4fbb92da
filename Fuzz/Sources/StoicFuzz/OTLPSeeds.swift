import StoicForwarding

/// Requests with every kind of value, as an exporter sends them: the OTLP targets' seeds.
enum OTLPSeeds {
  static var logs: OTLP.ExportLogsServiceRequest {
    let nested = OTLP.AnyValue.kvlist([
      OTLP.KeyValue(
        "inner", .array([.int(-1), .string("x"), .kvlist([OTLP.KeyValue("b", .bool(false))])])),
      OTLP.KeyValue("empty", .empty),
      OTLP.KeyValue("bytes", .bytes([0, 1, 2, 0xFF])),
    ])
    let record = OTLP.LogRecord(
      timeUnixNano: 1_700_000_000_123_456_789, observedTimeUnixNano: 1_700_000_000_223_456_789,
      severityNumber: .warn, severityText: "warning", body: .string("disk \"almost\" full\n\t95 %"),
      attributes: [
        OTLP.KeyValue("seq", .int(42)), OTLP.KeyValue("ratio", .double(0.95)),
        OTLP.KeyValue("ok", .bool(true)), OTLP.KeyValue("meta", nested),
      ],
      droppedAttributesCount: 2, flags: 1, traceId: Array(1...16), spanId: Array(1...8))
    return OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(
        resource: OTLP.Resource(attributes: [OTLP.KeyValue("service.name", .string("checkout"))]),
        scopeLogs: [
          OTLP.ScopeLogs(
            scope: OTLP.InstrumentationScope(name: "app", version: "1.2.3"),
            logRecords: [record, OTLP.LogRecord(timeUnixNano: 5, body: .string("hello"))],
            schemaUrl: "https://opentelemetry.io/schemas/1.24.0")
        ])
    ])
  }

  static var metrics: OTLP.ExportMetricsServiceRequest {
    let start: UInt64 = 1_700_000_000_000_000_000
    let now: UInt64 = 1_700_000_060_000_000_000
    let counter = OTLP.Metric(
      name: "records.written", description: "log records written", unit: "1",
      data: .sum(
        OTLP.Sum(
          dataPoints: [
            OTLP.NumberDataPoint(
              attributes: [OTLP.KeyValue("level", .string("info"))], startTimeUnixNano: start,
              timeUnixNano: now, value: .int(12_345))
          ], aggregationTemporality: .cumulative, isMonotonic: true)))
    let gauge = OTLP.Metric(
      name: "queue.depth", unit: "{records}",
      data: .gauge(
        OTLP.Gauge(dataPoints: [OTLP.NumberDataPoint(timeUnixNano: now, value: .double(17.5))])))
    let histogram = OTLP.Metric(
      name: "record.size", unit: "By",
      data: .histogram(
        OTLP.Histogram(
          dataPoints: [
            OTLP.HistogramDataPoint(
              startTimeUnixNano: start, timeUnixNano: now, count: 10, sum: 1234.5,
              bucketCounts: [1, 2, 3, 4], explicitBounds: [64, 256, 1024], min: 12, max: 2000)
          ], aggregationTemporality: .cumulative)))
    return OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(
        resource: OTLP.Resource(attributes: [OTLP.KeyValue("service.name", .string("checkout"))]),
        scopeMetrics: [OTLP.ScopeMetrics(metrics: [counter, gauge, histogram])])
    ])
  }
}
