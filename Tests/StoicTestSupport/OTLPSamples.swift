package import StoicForwarding
package import StoicTesting

/// Requests for the tests: a fixed one with every kind of value, and random ones from a seed.
package enum OTLPSamples {
  /// A logs request with every kind of AnyValue (nested kvlist and array included), a trace
  /// and span id, and two resources.
  package static var logsRequest: OTLP.ExportLogsServiceRequest {
    let nested = OTLP.AnyValue.kvlist([
      OTLP.KeyValue(
        "inner", .array([.int(-1), .string("x"), .kvlist([OTLP.KeyValue("deep", .bool(false))])])),
      OTLP.KeyValue("empty", .empty),
      OTLP.KeyValue("bytes", .bytes([0, 1, 2, 0xFF])),
    ])
    let record = OTLP.LogRecord(
      timeUnixNano: 1_700_000_000_123_456_789, observedTimeUnixNano: 1_700_000_000_223_456_789,
      severityNumber: .warn, severityText: "warning",
      body: .string("disk \"almost\" full\n\tat /var — 95 %"),
      attributes: [
        OTLP.KeyValue("seq", .int(42)),
        OTLP.KeyValue("ratio", .double(0.95)),
        OTLP.KeyValue("ok", .bool(true)),
        OTLP.KeyValue("tags", .array([.string("a"), .string("b"), .double(-2.5e-300)])),
        OTLP.KeyValue("meta", nested),
        OTLP.KeyValue("blob", .bytes(Array(0..<40))),
        OTLP.KeyValue("big", .int(Int64.min)),
      ],
      droppedAttributesCount: 2, flags: 1,
      traceId: [
        0x5B, 0x8E, 0xFF, 0xF7, 0x98, 0x03, 0x81, 0x03, 0xD2, 0x69, 0xB6, 0x33, 0x81, 0x3F, 0xC6,
        0x0C,
      ],
      spanId: [0xEE, 0xE1, 0x9B, 0x7E, 0xC3, 0xC1, 0xB1, 0x74])
    let plain = OTLP.LogRecord(
      timeUnixNano: 5, severityNumber: .info, severityText: "info", body: .string("hello"),
      attributes: [OTLP.KeyValue("seq", .int(43))])
    return OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.name", .string("checkout")),
          OTLP.KeyValue("service.instance.id", .string("instance-1")),
        ]),
        scopeLogs: [
          OTLP.ScopeLogs(
            scope: OTLP.InstrumentationScope(
              name: "app.payments", version: "1.2.3", attributes: [OTLP.KeyValue("k", .string("v"))]
            ),
            logRecords: [record, plain], schemaUrl: "https://opentelemetry.io/schemas/1.24.0")
        ], schemaUrl: "https://opentelemetry.io/schemas/1.24.0"),
      OTLP.ResourceLogs(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.instance.id", .string("instance-2"))
        ]),
        scopeLogs: [OTLP.ScopeLogs(logRecords: [OTLP.LogRecord(body: .empty)])]),
    ])
  }

  /// A metrics request with a monotonic cumulative sum (int and double points), a gauge and a
  /// histogram with explicit bounds, sum, min and max.
  package static var metricsRequest: OTLP.ExportMetricsServiceRequest {
    let start: UInt64 = 1_700_000_000_000_000_000
    let now: UInt64 = 1_700_000_060_000_000_000
    let counter = OTLP.Metric(
      name: "records.written", description: "log records written", unit: "1",
      data: .sum(
        OTLP.Sum(
          dataPoints: [
            OTLP.NumberDataPoint(
              attributes: [OTLP.KeyValue("level", .string("info"))], startTimeUnixNano: start,
              timeUnixNano: now, value: .int(12_345)),
            OTLP.NumberDataPoint(
              attributes: [OTLP.KeyValue("level", .string("error"))], startTimeUnixNano: start,
              timeUnixNano: now, value: .int(0)),
          ], aggregationTemporality: .cumulative, isMonotonic: true)))
    let gauge = OTLP.Metric(
      name: "queue.depth", unit: "{records}",
      data: .gauge(
        OTLP.Gauge(dataPoints: [
          OTLP.NumberDataPoint(timeUnixNano: now, value: .double(17.5), flags: 0),
          OTLP.NumberDataPoint(
            attributes: [OTLP.KeyValue("queue", .string("b"))], timeUnixNano: now, value: .int(-3)),
        ])))
    let histogram = OTLP.Metric(
      name: "record.size", description: "sizes of records", unit: "By",
      data: .histogram(
        OTLP.Histogram(
          dataPoints: [
            OTLP.HistogramDataPoint(
              attributes: [OTLP.KeyValue("spool", .string("main"))], startTimeUnixNano: start,
              timeUnixNano: now, count: 10, sum: 1234.5, bucketCounts: [1, 2, 3, 4],
              explicitBounds: [64, 256, 1024], min: 12, max: 2000),
            OTLP.HistogramDataPoint(
              startTimeUnixNano: start, timeUnixNano: now, count: 0, bucketCounts: [0],
              explicitBounds: []),
          ], aggregationTemporality: .cumulative)))
    return OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.name", .string("checkout")),
          OTLP.KeyValue("service.instance.id", .string("instance-1")),
        ]),
        scopeMetrics: [
          OTLP.ScopeMetrics(
            scope: OTLP.InstrumentationScope(name: "stoic", version: "0.1"),
            metrics: [counter, gauge, histogram])
        ])
    ])
  }

  // MARK: Random requests

  /// A random logs request (finite doubles only, so `==` compares it).
  package static func randomLogs(_ random: inout SplitMix64) -> OTLP.ExportLogsServiceRequest {
    OTLP.ExportLogsServiceRequest(
      resourceLogs: (0..<Int.random(in: 0...2, using: &random)).map { _ in
        OTLP.ResourceLogs(
          resource: Bool.random(using: &random) ? randomResource(&random) : nil,
          scopeLogs: (0..<Int.random(in: 0...2, using: &random)).map { _ in
            OTLP.ScopeLogs(
              scope: Bool.random(using: &random) ? randomScope(&random) : nil,
              logRecords: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                randomRecord(&random)
              }, schemaUrl: randomString(&random, maxLength: 4))
          }, schemaUrl: randomString(&random, maxLength: 4))
      })
  }

  /// A random metrics request (finite doubles only).
  package static func randomMetrics(_ random: inout SplitMix64) -> OTLP.ExportMetricsServiceRequest
  {
    OTLP.ExportMetricsServiceRequest(
      resourceMetrics: (0..<Int.random(in: 0...2, using: &random)).map { _ in
        OTLP.ResourceMetrics(
          resource: Bool.random(using: &random) ? randomResource(&random) : nil,
          scopeMetrics: (0..<Int.random(in: 0...2, using: &random)).map { _ in
            OTLP.ScopeMetrics(
              scope: Bool.random(using: &random) ? randomScope(&random) : nil,
              metrics: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                randomMetric(&random)
              })
          })
      })
  }

  package static func randomResource(_ random: inout SplitMix64) -> OTLP.Resource {
    OTLP.Resource(
      attributes: randomAttributes(&random, depth: 1),
      droppedAttributesCount: UInt32.random(in: 0...3, using: &random))
  }

  package static func randomScope(_ random: inout SplitMix64) -> OTLP.InstrumentationScope {
    OTLP.InstrumentationScope(
      name: randomString(&random, maxLength: 8), version: randomString(&random, maxLength: 3),
      attributes: randomAttributes(&random, depth: 1),
      droppedAttributesCount: UInt32.random(in: 0...1, using: &random))
  }

  package static func randomRecord(_ random: inout SplitMix64) -> OTLP.LogRecord {
    OTLP.LogRecord(
      timeUnixNano: randomUInt64(&random), observedTimeUnixNano: randomUInt64(&random),
      severityNumber: OTLP.SeverityNumber(rawValue: Int32.random(in: -2...24, using: &random)),
      severityText: randomString(&random, maxLength: 6),
      body: Bool.random(using: &random) ? randomValue(&random, depth: 3) : nil,
      attributes: randomAttributes(&random, depth: 3),
      droppedAttributesCount: UInt32.random(in: 0...2, using: &random),
      flags: Bool.random(using: &random) ? UInt32.max : UInt32.random(in: 0...1, using: &random),
      traceId: randomBytes(&random, maxLength: 16), spanId: randomBytes(&random, maxLength: 8))
  }

  package static func randomMetric(_ random: inout SplitMix64) -> OTLP.Metric {
    let data: OTLP.Metric.Data?
    switch Int.random(in: 0...3, using: &random) {
    case 0:
      data = .gauge(OTLP.Gauge(dataPoints: randomNumberPoints(&random)))
    case 1:
      data = .sum(
        OTLP.Sum(
          dataPoints: randomNumberPoints(&random),
          aggregationTemporality: OTLP.AggregationTemporality(
            rawValue: Int32.random(in: 0...2, using: &random)),
          isMonotonic: Bool.random(using: &random)))
    case 2:
      data = .histogram(
        OTLP.Histogram(
          dataPoints: (0..<Int.random(in: 0...2, using: &random)).map { _ in
            let bounds = (0..<Int.random(in: 0...4, using: &random)).map { _ in
              randomDouble(&random)
            }
            return OTLP.HistogramDataPoint(
              attributes: randomAttributes(&random, depth: 1),
              startTimeUnixNano: randomUInt64(&random), timeUnixNano: randomUInt64(&random),
              count: randomUInt64(&random),
              sum: Bool.random(using: &random) ? randomDouble(&random) : nil,
              bucketCounts: (0...bounds.count).map { _ in randomUInt64(&random) },
              explicitBounds: bounds, flags: UInt32.random(in: 0...1, using: &random),
              min: Bool.random(using: &random) ? randomDouble(&random) : nil,
              max: Bool.random(using: &random) ? randomDouble(&random) : nil)
          },
          aggregationTemporality: OTLP.AggregationTemporality(
            rawValue: Int32.random(in: 0...2, using: &random))))
    default:
      data = nil
    }
    return OTLP.Metric(
      name: randomString(&random, maxLength: 10), description: randomString(&random, maxLength: 5),
      unit: randomString(&random, maxLength: 2), data: data)
  }

  package static func randomNumberPoints(_ random: inout SplitMix64) -> [OTLP.NumberDataPoint] {
    (0..<Int.random(in: 0...3, using: &random)).map { _ in
      let value: OTLP.NumberDataPoint.Value? =
        switch Int.random(in: 0...2, using: &random) {
        case 0: .int(Int64(bitPattern: randomUInt64(&random)))
        case 1: .double(randomDouble(&random))
        default: nil
        }
      return OTLP.NumberDataPoint(
        attributes: randomAttributes(&random, depth: 2), startTimeUnixNano: randomUInt64(&random),
        timeUnixNano: randomUInt64(&random), value: value,
        flags: UInt32.random(in: 0...1, using: &random))
    }
  }

  package static func randomAttributes(_ random: inout SplitMix64, depth: Int) -> [OTLP.KeyValue] {
    (0..<Int.random(in: 0...3, using: &random)).map { _ in
      OTLP.KeyValue(randomString(&random, maxLength: 8), randomValue(&random, depth: depth))
    }
  }

  package static func randomValue(_ random: inout SplitMix64, depth: Int) -> OTLP.AnyValue {
    switch Int.random(in: 0...(depth > 0 ? 7 : 5), using: &random) {
    case 0: return .empty
    case 1: return .string(randomString(&random, maxLength: 20))
    case 2: return .bool(Bool.random(using: &random))
    case 3: return .int(Int64(bitPattern: randomUInt64(&random)))
    case 4: return .double(randomDouble(&random))
    case 5: return .bytes(randomBytes(&random, maxLength: 12))
    case 6:
      return .array(
        (0..<Int.random(in: 0...3, using: &random)).map { _ in
          randomValue(&random, depth: depth - 1)
        })
    default: return .kvlist(randomAttributes(&random, depth: depth - 1))
    }
  }

  /// Strings with what JSON must escape, multi-byte characters and emoji among ASCII.
  package static func randomString(_ random: inout SplitMix64, maxLength: Int) -> String {
    let pieces: [String] = [
      "a", "b", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é",
      "—", "€", "😀", "𝄞", "service.name", "seq", "\u{2028}",
    ]
    return (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }.joined()
  }

  package static func randomBytes(_ random: inout SplitMix64, maxLength: Int) -> [UInt8] {
    (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
      UInt8.random(in: 0...255, using: &random)
    }
  }

  /// Small, large, zero and boundary values.
  package static func randomUInt64(_ random: inout SplitMix64) -> UInt64 {
    switch Int.random(in: 0...4, using: &random) {
    case 0: 0
    case 1: UInt64.random(in: 0...300, using: &random)
    case 2: UInt64.max
    default: random.next()
    }
  }

  /// Finite doubles: zero of either sign, integers, fractions, extremes, subnormals.
  package static func randomDouble(_ random: inout SplitMix64) -> Double {
    let extremes: [Double] = [
      .greatestFiniteMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude / 1024, 1e300,
    ]
    switch Int.random(in: 0...6, using: &random) {
    case 0: return 0
    case 1: return -0.0
    case 2: return Double(Int.random(in: -1000...1000, using: &random))
    case 3: return Double.random(in: -1...1, using: &random)
    case 4: return extremes[Int.random(in: 0..<extremes.count, using: &random)]
    default:
      let value = Double(bitPattern: random.next())
      return value.isFinite ? value : 1.5
    }
  }
}
