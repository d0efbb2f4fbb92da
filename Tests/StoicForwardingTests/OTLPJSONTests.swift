import StoicTestSupport
import StoicTesting
import Testing

@testable import StoicForwarding

/// OTLP messages in OTLP's JSON mapping: exact text for fixed requests, round trips, what the
/// reader accepts (either form of 64-bit integers, `null`, unknown keys, escapes) and refuses.
@Suite("OTLP JSON encoding")
struct OTLPJSONTests {
  static func text(_ message: some OTLPMessage) -> String {
    String(decoding: message.encoded(as: .json), as: UTF8.self)
  }

  @Test("a small logs request encodes to OTLP JSON: camelCase keys, 64-bit ints as strings")
  func goldenLogs() throws {
    let expected =
      #"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"#
      + #""scopeLogs":[{"scope":{"name":"s"},"logRecords":[{"timeUnixNano":"1","severityNumber":9,"#
      + #""severityText":"INFO","body":{"stringValue":"hi"},"attributes":[{"key":"n","value":{"intValue":"150"}}]}]}]}]}"#
    #expect(Self.text(OTLPProtobufTests.small) == expected)
    #expect(
      try OTLP.ExportLogsServiceRequest(json: Array(expected.utf8)) == OTLPProtobufTests.small)
  }

  @Test("trace and span ids are hex, other bytes base64, doubles shortest, specials as strings")
  func goldenScalars() {
    let request = OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(scopeLogs: [
        OTLP.ScopeLogs(logRecords: [
          OTLP.LogRecord(
            body: .kvlist([
              OTLP.KeyValue("b", .bytes([0xFB, 0xFF, 0x00])),
              OTLP.KeyValue("d", .double(0.1)),
              OTLP.KeyValue("n", .double(.nan)),
              OTLP.KeyValue("i", .double(-.infinity)),
              OTLP.KeyValue("z", .double(-0.0)),
              OTLP.KeyValue("e", .empty),
              OTLP.KeyValue("a", .array([])),
            ]), flags: 1, traceId: [0x5B, 0x8E, 0xFF, 0x00], spanId: [0xAB])
        ])
      ])
    ])
    let expected =
      #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"kvlistValue":{"values":["#
      + #"{"key":"b","value":{"bytesValue":"+/8A"}},{"key":"d","value":{"doubleValue":0.1}},"#
      + #"{"key":"n","value":{"doubleValue":"NaN"}},{"key":"i","value":{"doubleValue":"-Infinity"}},"#
      + #"{"key":"z","value":{"doubleValue":-0.0}},{"key":"e"},{"key":"a","value":{"arrayValue":{}}}]}},"#
      + #""flags":1,"traceId":"5b8eff00","spanId":"ab"}]}]}]}"#
    #expect(Self.text(request) == expected)
  }

  @Test("metrics encode with enums as integers and counts as strings")
  func goldenMetrics() throws {
    let request = OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(scopeMetrics: [
        OTLP.ScopeMetrics(metrics: [
          OTLP.Metric(
            name: "c", unit: "1",
            data: .sum(
              OTLP.Sum(dataPoints: [OTLP.NumberDataPoint(timeUnixNano: 2, value: .int(5))]))),
          OTLP.Metric(
            name: "g",
            data: .gauge(OTLP.Gauge(dataPoints: [OTLP.NumberDataPoint(value: .double(1.5))]))),
          OTLP.Metric(
            name: "h",
            data: .histogram(
              OTLP.Histogram(dataPoints: [
                OTLP.HistogramDataPoint(
                  count: 3, sum: 0.5, bucketCounts: [1, 2], explicitBounds: [10], min: 0, max: 20)
              ]))),
        ])
      ])
    ])
    let expected =
      #"{"resourceMetrics":[{"scopeMetrics":[{"metrics":["#
      + #"{"name":"c","unit":"1","sum":{"dataPoints":[{"timeUnixNano":"2","asInt":"5"}],"aggregationTemporality":2,"isMonotonic":true}},"#
      + #"{"name":"g","gauge":{"dataPoints":[{"asDouble":1.5}]}},"#
      + #"{"name":"h","histogram":{"dataPoints":[{"count":"3","sum":0.5,"bucketCounts":["1","2"],"explicitBounds":[10.0],"min":0.0,"max":20.0}],"aggregationTemporality":2}}"#
      + #"]}]}]}"#
    #expect(Self.text(request) == expected)
    #expect(try OTLP.ExportMetricsServiceRequest(json: Array(expected.utf8)) == request)
  }

  @Test("responses and statuses")
  func goldenResponses() throws {
    let logs = OTLP.ExportLogsServiceResponse(
      partialSuccess: OTLP.ExportLogsPartialSuccess(rejectedLogRecords: 3, errorMessage: "no"))
    #expect(
      Self.text(logs) == #"{"partialSuccess":{"rejectedLogRecords":"3","errorMessage":"no"}}"#)
    #expect(Self.text(OTLP.ExportMetricsServiceResponse()) == "{}")
    #expect(Self.text(OTLP.Status(code: 3, message: "bad")) == #"{"code":3,"message":"bad"}"#)
    #expect(
      try OTLP.ExportMetricsServiceResponse(
        json: Array(#"{"partialSuccess":{"rejectedDataPoints":7}}"#.utf8)
      )
      .partialSuccess?.rejectedDataPoints == 7)
  }

  @Test("the sample and random requests survive a JSON round trip (seeded)")
  func roundTrips() throws {
    #expect(
      try OTLP.ExportLogsServiceRequest(json: OTLPSamples.logsRequest.encoded(as: .json))
        == OTLPSamples.logsRequest)
    #expect(
      try OTLP.ExportMetricsServiceRequest(json: OTLPSamples.metricsRequest.encoded(as: .json))
        == OTLPSamples.metricsRequest)
    var random = SplitMix64(seed: 0x150)
    for _ in 0..<500 {
      let logs = OTLPSamples.randomLogs(&random)
      #expect(try OTLP.ExportLogsServiceRequest(json: logs.encoded(as: .json)) == logs)
      let metrics = OTLPSamples.randomMetrics(&random)
      #expect(try OTLP.ExportMetricsServiceRequest(json: metrics.encoded(as: .json)) == metrics)
    }
  }

  @Test(
    "the reader accepts what proto3 JSON allows: numbers or strings, null, unknown keys, escapes")
  func lenientReading() throws {
    let json = """
       { "resourceLogs" : [ { "unknown": {"deep": [1, {"x": null}, "s", true, false, -1.5e3]},
         "scopeLogs": [ { "logRecords": [ {
           "timeUnixNano": 1700000000000000000, "observedTimeUnixNano": "7",
           "severityNumber": "13", "severityText": null, "flags": "2",
           "body": { "stringValue": "a\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00" },
           "attributes": [ {"key": "i", "value": {"intValue": -5}},
                           {"key": "d", "value": {"doubleValue": "1e2"}},
                           {"key": "x", "value": {"doubleValue": "Infinity"}},
                           {"key": "b64", "value": {"bytesValue": "-_8"}} ],
           "traceId": "5B8EFFF798038103D269B633813FC60C"
         } ] } ] } ] }
      """
    let request = try OTLP.ExportLogsServiceRequest(json: Array(json.utf8))
    let record = try #require(request.resourceLogs.first?.scopeLogs.first?.logRecords.first)
    #expect(record.timeUnixNano == 1_700_000_000_000_000_000)
    #expect(record.observedTimeUnixNano == 7)
    #expect(record.severityNumber == .warn)
    #expect(record.severityText == "")
    #expect(record.flags == 2)
    #expect(record.body == .string("a\"b\\c/d\né😀"))
    #expect(record.attribute("i") == .int(-5))
    #expect(record.attribute("d") == .double(100))
    #expect(record.attribute("x") == .double(.infinity))
    #expect(record.attribute("b64") == .bytes([0xFB, 0xFF]))
    #expect(record.traceId.count == 16 && record.traceId.first == 0x5B)
  }

  @Test(
    "the reader refuses what is not OTLP JSON, with a typed error",
    arguments: [
      "", "[]", "{", "{\"resourceLogs\":[}", "{\"resourceLogs\":[],}", "{\"a\":1} x",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"-1\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":1.5}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"severityNumber\":\"+1\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"abc\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"zz\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"bytesValue\":\"@@\"}}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"boolValue\":1}}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"severityText\":\"a\u{1}b\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"severityText\":\"\\ud800\"}]}]}]}",
      "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"severityText\":\"\\x\"}]}]}]}",
      "{\"a\":01}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":tru}", "{'a':1}",
      "{\"resourceLogs\":[null]}",
    ])
  func strictReading(json: String) {
    #expect(throws: ForwardingError.self) {
      try OTLP.ExportLogsServiceRequest(json: Array(json.utf8))
    }
  }

  @Test("invalid UTF-8 in a string or a key is refused, not repaired")
  func invalidUTF8() {
    for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
      let inValue = Array(#"{"resourceLogs":[{"schemaUrl":""#.utf8) + bad + Array(#""}]}"#.utf8)
      let inKey = Array(#"{""#.utf8) + bad + Array(#"":1}"#.utf8)
      for bytes in [inValue, inKey] {
        #expect {
          try OTLP.ExportLogsServiceRequest(json: bytes)
        } throws: { error in
          (error as? ForwardingError)?.code == .invalidUTF8
        }
      }
    }
  }

  @Test("nesting deeper than the limit is refused")
  func depthLimit() {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let json = #"{"unknown":"# + deep + "}"
    #expect {
      try OTLP.ExportLogsServiceRequest(json: Array(json.utf8))
    } throws: { error in
      (error as? ForwardingError)?.code == .tooDeep
    }
    var value = #"{"stringValue":"x"}"#
    for _ in 0..<100 { value = #"{"arrayValue":{"values":["# + value + "]}}" }
    let nested = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":"# + value + "}]}]}]}"
    #expect {
      try OTLP.ExportLogsServiceRequest(json: Array(nested.utf8))
    } throws: { error in
      (error as? ForwardingError)?.code == .tooDeep
    }
  }

  @Test("base64 reads both alphabets, with or without padding, and refuses the rest")
  func base64() {
    #expect(Base64.decode("") == [])
    #expect(Base64.decode("TQ==") == [0x4D])
    #expect(Base64.decode("TQ") == [0x4D])
    #expect(Base64.decode("TWE=") == [0x4D, 0x61])
    #expect(Base64.decode("TWFu") == [0x4D, 0x61, 0x6E])
    #expect(Base64.decode("-_8") == [0xFB, 0xFF])
    #expect(Base64.decode("+/8") == [0xFB, 0xFF])
    #expect(Base64.decode("T") == nil)
    #expect(Base64.decode("TR==") == nil)  // non-zero padding bits
    #expect(Base64.decode("T=Q=") == nil)
    #expect(Base64.decode("TQ===") == nil)
    #expect(Base64.decode("TQ!=") == nil)
    var random = SplitMix64(seed: 64)
    for length in 0..<40 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      var writer = JSONWriter()
      writer.base64(bytes)
      var encoded: [UInt8] = []
      writer.bytes.copy(appendingTo: &encoded)
      let text = String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self)
      #expect(Base64.decode(text) == bytes)
    }
  }
}
