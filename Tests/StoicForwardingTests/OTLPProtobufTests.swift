import StoicTestSupport
import StoicTesting
import Testing

@testable import StoicForwarding

/// OTLP messages in binary protobuf: bytes computed by hand from the `.proto` field numbers,
/// round trips of fixed and random requests, and the decoder's protobuf rules (unknown fields
/// skipped, wrong wire types skipped, singular messages merged).
@Suite("OTLP protobuf encoding")
struct OTLPProtobufTests {
  /// A small request whose bytes are worked out by hand below.
  static let small = OTLP.ExportLogsServiceRequest(resourceLogs: [
    OTLP.ResourceLogs(
      resource: OTLP.Resource(attributes: [OTLP.KeyValue("service.name", .string("svc"))]),
      scopeLogs: [
        OTLP.ScopeLogs(
          scope: OTLP.InstrumentationScope(name: "s"),
          logRecords: [
            OTLP.LogRecord(
              timeUnixNano: 1, severityNumber: .info, severityText: "INFO", body: .string("hi"),
              attributes: [OTLP.KeyValue("n", .int(150))])
          ])
      ])
  ])

  /// logs.proto: LogRecord 1 time_unix_nano fixed64, 2 severity_number, 3 severity_text,
  /// 5 body, 6 attributes; common.proto: KeyValue 1 key, 2 value; AnyValue 1 string_value,
  /// 3 int_value; InstrumentationScope 1 name; Resource 1 attributes; ScopeLogs 1 scope,
  /// 2 log_records; ResourceLogs 1 resource, 2 scope_logs; the request 1 resource_logs.
  static let smallBytes: [UInt8] =
    [0x0A, 0x43]  // resource_logs, 67 bytes
    + [0x0A, 0x17]  // resource, 23 bytes
    + [0x0A, 0x15, 0x0A, 0x0C] + Array("service.name".utf8) + [0x12, 0x05, 0x0A, 0x03]
    + Array("svc".utf8)
    + [0x12, 0x28]  // scope_logs, 40 bytes
    + [0x0A, 0x03, 0x0A, 0x01, 0x73]  // scope { name "s" }
    + [0x12, 0x21]  // log_records, 33 bytes
    + [0x09, 1, 0, 0, 0, 0, 0, 0, 0]  // time_unix_nano 1
    + [0x10, 0x09]  // severity_number INFO
    + [0x1A, 0x04] + Array("INFO".utf8)
    + [0x2A, 0x04, 0x0A, 0x02] + Array("hi".utf8)  // body { string_value "hi" }
    + [0x32, 0x08, 0x0A, 0x01, 0x6E, 0x12, 0x03, 0x18, 0x96, 0x01]  // attributes { n: 150 }

  @Test("a small logs request encodes to the bytes worked out from the .proto files")
  func goldenBytes() throws {
    #expect(Self.small.encoded(as: .protobuf) == Self.smallBytes)
    #expect(try OTLP.ExportLogsServiceRequest(protobuf: Self.smallBytes) == Self.small)
  }

  @Test("responses and statuses encode by their field numbers")
  func responsesGolden() throws {
    let logs = OTLP.ExportLogsServiceResponse(
      partialSuccess: OTLP.ExportLogsPartialSuccess(rejectedLogRecords: 3, errorMessage: "no"))
    #expect(logs.encoded(as: .protobuf) == [0x0A, 0x06, 0x08, 0x03, 0x12, 0x02, 0x6E, 0x6F])
    let metrics = OTLP.ExportMetricsServiceResponse(
      partialSuccess: OTLP.ExportMetricsPartialSuccess(rejectedDataPoints: 1))
    #expect(metrics.encoded(as: .protobuf) == [0x0A, 0x02, 0x08, 0x01])
    #expect(OTLP.ExportLogsServiceResponse().encoded(as: .protobuf) == [])
    let status = OTLP.Status(code: 3, message: "bad")
    #expect(status.encoded(as: .protobuf) == [0x08, 0x03, 0x12, 0x03, 0x62, 0x61, 0x64])
    #expect(try OTLP.Status(protobuf: [0x08, 0x03, 0x12, 0x03, 0x62, 0x61, 0x64]) == status)
  }

  @Test("metrics: field numbers of Sum, Gauge, Histogram and their points")
  func metricsGolden() throws {
    let request = OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(scopeMetrics: [
        OTLP.ScopeMetrics(metrics: [
          OTLP.Metric(
            name: "c",
            data: .sum(
              OTLP.Sum(dataPoints: [OTLP.NumberDataPoint(timeUnixNano: 2, value: .int(5))]))),
          OTLP.Metric(
            name: "h",
            data: .histogram(
              OTLP.Histogram(dataPoints: [
                OTLP.HistogramDataPoint(
                  count: 1, sum: 0.5, bucketCounts: [1, 0], explicitBounds: [1])
              ]))),
        ])
      ])
    ])
    let sumPoint: [UInt8] = [0x19, 2, 0, 0, 0, 0, 0, 0, 0, 0x31, 5, 0, 0, 0, 0, 0, 0, 0]
    let sum: [UInt8] = [0x0A, UInt8(sumPoint.count)] + sumPoint + [0x10, 0x02, 0x18, 0x01]
    let metricC: [UInt8] = [0x0A, 0x01, 0x63, 0x3A, UInt8(sum.count)] + sum
    let histogramPoint: [UInt8] =
      [0x21, 1, 0, 0, 0, 0, 0, 0, 0]  // count
      + [0x29, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F]  // sum 0.5
      + [0x32, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // bucket_counts, packed
      + [0x3A, 0x08, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F]  // explicit_bounds [1.0], packed
    let histogram: [UInt8] = [0x0A, UInt8(histogramPoint.count)] + histogramPoint + [0x10, 0x02]
    let metricH: [UInt8] = [0x0A, 0x01, 0x68, 0x4A, UInt8(histogram.count)] + histogram
    let scope: [UInt8] =
      [0x12, UInt8(metricC.count)] + metricC + [0x12, UInt8(metricH.count)] + metricH
    let resource: [UInt8] = [0x12, UInt8(scope.count)] + scope
    let expected: [UInt8] = [0x0A, UInt8(resource.count)] + resource
    #expect(request.encoded(as: .protobuf) == expected)
    #expect(try OTLP.ExportMetricsServiceRequest(protobuf: expected) == request)
  }

  @Test("the sample requests survive a round trip")
  func samplesRoundTrip() throws {
    let logs = OTLPSamples.logsRequest
    #expect(try OTLP.ExportLogsServiceRequest(protobuf: logs.encoded(as: .protobuf)) == logs)
    let metrics = OTLPSamples.metricsRequest
    #expect(
      try OTLP.ExportMetricsServiceRequest(protobuf: metrics.encoded(as: .protobuf)) == metrics)
  }

  @Test("random requests survive a round trip (seeded)")
  func randomRoundTrips() throws {
    var random = SplitMix64(seed: 0x0714)
    for _ in 0..<500 {
      let logs = OTLPSamples.randomLogs(&random)
      #expect(try OTLP.ExportLogsServiceRequest(protobuf: logs.encoded(as: .protobuf)) == logs)
      let metrics = OTLPSamples.randomMetrics(&random)
      #expect(
        try OTLP.ExportMetricsServiceRequest(protobuf: metrics.encoded(as: .protobuf)) == metrics)
    }
  }

  @Test("encoding appends to a reused buffer")
  func appendsToBuffer() {
    var buffer: [UInt8] = [1, 2, 3]
    Self.small.encodeProtobuf(into: &buffer)
    #expect(buffer == [1, 2, 3] + Self.smallBytes)
    buffer.removeAll(keepingCapacity: true)
    Self.small.encodeProtobuf(into: &buffer)
    #expect(buffer == Self.smallBytes)
  }

  @Test("unknown fields and known fields with another wire type are skipped")
  func unknownFieldsSkipped() throws {
    // Into the log record: field 12 (event_name, not in this model), field 99 (unknown),
    // field 2 sent as a string instead of a varint, and a group 20.
    let extra: [UInt8] =
      [0x62, 0x03] + Array("evt".utf8) + [0x98, 0x06, 0x01] + [0x12, 0x01, 0x41]
      + [0xA3, 0x01, 0x08, 0x01, 0xA4, 0x01]
    var bytes = Self.smallBytes
    // Lengths grow by extra.count at every level enclosing the record.
    bytes[1] += UInt8(extra.count)  // resource_logs length
    bytes[2 + 2 + 0x17 + 1] += UInt8(extra.count)  // scope_logs length, after the resource
    bytes[2 + 2 + 0x17 + 2 + 5 + 1] += UInt8(extra.count)  // log_records, after the scope
    bytes.append(contentsOf: extra)
    #expect(try OTLP.ExportLogsServiceRequest(protobuf: bytes) == Self.small)
  }

  @Test("a singular submessage sent twice is merged, as protobuf merges it")
  func mergesSingularMessages() throws {
    // Two resource fields, each with one attribute: the decoded resource has both.
    let first = OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(resource: OTLP.Resource(attributes: [OTLP.KeyValue("a", .int(1))]))
    ]).encoded(as: .protobuf)
    let second = OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(resource: OTLP.Resource(attributes: [OTLP.KeyValue("b", .int(2))]))
    ]).encoded(as: .protobuf)
    // Splice: one resource_logs whose content is both resource fields.
    let firstInner = Array(first.dropFirst(2))
    let secondInner = Array(second.dropFirst(2))
    let bytes = [0x0A, UInt8(firstInner.count + secondInner.count)] + firstInner + secondInner
    let decoded = try OTLP.ExportLogsServiceRequest(protobuf: bytes)
    #expect(
      decoded.resourceLogs.first?.resource?.attributes == [
        OTLP.KeyValue("a", .int(1)), OTLP.KeyValue("b", .int(2)),
      ])
    // Two array values in one AnyValue extend each other; a later string replaces them.
    // array_value { values { bool_value true } }, then array_value { values { int_value 1 } }
    let twoArrays: [UInt8] =
      [0x2A, 0x04, 0x0A, 0x02, 0x10, 0x01] + [0x2A, 0x04, 0x0A, 0x02, 0x18, 0x01]
    var value = OTLP.AnyValue.empty
    var reader = ProtobufReader(twoArrays)
    try OTLPCommonProtobuf.merge(&value, from: &reader)
    #expect(value == .array([.bool(true), .int(1)]))
    reader = ProtobufReader(twoArrays + [0x0A, 0x01, 0x78])
    try OTLPCommonProtobuf.merge(&value, from: &reader)
    #expect(value == .string("x"))
  }

  @Test("NaN and infinities keep their bits through protobuf")
  func nonFiniteDoubles() throws {
    let values: [Double] = [.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude]
    let request = OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(scopeLogs: [
        OTLP.ScopeLogs(logRecords: [
          OTLP.LogRecord(attributes: values.map { OTLP.KeyValue("d", .double($0)) })
        ])
      ])
    ])
    let decoded = try OTLP.ExportLogsServiceRequest(protobuf: request.encoded(as: .protobuf))
    let bits = decoded.resourceLogs[0].scopeLogs[0].logRecords[0].attributes.map { pair in
      if case .double(let value) = pair.value { return value.bitPattern }
      return 0
    }
    #expect(bits == values.map(\.bitPattern))
  }
}
