import StoicTestSupport
import StoicTesting
import Testing

@testable import StoicCollector
@testable import StoicForwarding

/// The collector's JSON → protobuf walk over a logs request agrees with the model: whatever it
/// transcodes is exactly what decoding the JSON and encoding protobuf gives (bytes, record
/// counts, resources), and it transcodes nothing the model refuses. Requests in the shape
/// encoders write take the walk.
@Suite struct OTLPLogsJSONTranscoderTests {
  /// Checks the walk against the model on `json`; returns whether the walk transcoded it.
  @discardableResult
  func expectAgreement(_ json: [UInt8], _ what: String) -> Bool {
    let model = Result { () throws(ForwardingError) in
      try OTLP.ExportLogsServiceRequest(json: json)
    }
    guard let transcoded = OTLPLogsJSONTranscoder.transcode(json) else { return false }
    switch model {
    case .failure(let error):
      Issue.record("\(what): transcoded what the model refuses (\(error))")
    case .success(let request):
      #expect(transcoded.protobuf == request.encoded(as: .protobuf), "\(what): bytes")
      #expect(
        transcoded.resources.map(\.logRecords)
          == request.resourceLogs.map { $0.scopeLogs.reduce(0) { $0 + $1.logRecords.count } },
        "\(what): counts")
      #expect(
        resources(transcoded.resources.map(\.resource))
          == resources(request.resourceLogs.map(\.resource)), "\(what): resources")
    }
    return true
  }

  /// Resources compared as their encoding (a NaN attribute is never equal to itself).
  func resources(_ resources: [OTLP.Resource?]) -> [UInt8] {
    OTLP.ExportLogsServiceRequest(resourceLogs: resources.map { OTLP.ResourceLogs(resource: $0) })
      .encoded(as: .protobuf)
  }

  @Test func transcodesWhatEncodersWriteToTheModelsBytes() {
    #expect(expectAgreement(OTLPSamples.logsRequest.encoded(as: .json), "the sample"))
    var random = SplitMix64(seed: 0x7A45)
    for index in 0..<300 {
      let json = OTLPSamples.randomLogs(&random).encoded(as: .json)
      #expect(expectAgreement(json, "random request \(index)"), "random request \(index)")
    }
  }

  /// What the reader accepts beyond what the encoder writes (OTLP/JSON's latitude).
  @Test func readsWhatTheReaderAccepts() {
    let record = #"{"timeUnixNano":"5","severityNumber":9,"body":{"stringValue":"hi"}}"#
    func request(_ records: String, resource: String = #"{"attributes":[]}"#) -> [UInt8] {
      Array(
        #"{"resourceLogs":[{"resource":\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]}"#
          .utf8)
    }
    // Taken by the walk.
    let fast = [
      record,
      #"{"timeUnixNano":5,"observedTimeUnixNano":"18446744073709551615"}"#,
      #"{"timeUnixNano":"007","severityNumber":"17","flags":4294967295}"#,
      #"{"severityNumber":-3,"droppedAttributesCount":"2"}"#,
      #"{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"eee19b7ec3c1b174"}"#,
      #"{"body":null,"attributes":[],"traceId":"","spanId":null}"#,
      #"{"severityText":"caf\u00e9 \"x\"","body":{"stringValue":"é — ✓"}}"#,
      #"{"s\u0065verityText":"escaped key","unknown":{"a":[1,2,{"b":null}]},"x":1e5}"#,
      #" { "body" : { "intValue" : "-9223372036854775808" } , "attributes" : [ ] } "#,
      #"{"body":{"intValue":9223372036854775807}}"#,
      #"{"body":{"doubleValue":"NaN"}}"#,
      #"{"body":{"doubleValue":-0.0}}"#,
      #"{"body":{"boolValue":false}}"#,
      #"{"body":{"bytesValue":"AAEC/w=="}}"#,
      #"{"body":{}}"#,
      #"{"body":{"arrayValue":{}}}"#,
      #"{"body":{"arrayValue":{"values":[{},{"intValue":1}],"values":[{"stringValue":""}]}}}"#,
      #"{"body":{"kvlistValue":{"values":[{"key":"a","value":{"boolValue":true}},{"key":""}]}}}"#,
      #"{"attributes":[{"key":"k"},{"value":{"stringValue":"no key"}},{}]}"#,
      #"{"attributes":[{"key":"k","value":{"stringValue":null,"intValue":3}}]}"#,
      #"{"attributes":[{"key":"n","value":{"intValue":"007"}},{"key":"","value":{"intValue":"0"}}]}"#,
      #"{"attributes":[{"key":"é","value":{"stringValue":""}},{"key":"m","value":{"intValue":9}}]}"#,
      #"{"attributes":[{"key":"big","value":{"intValue":"9223372036854775807"}}]}"#,
      #"{"attributes":[{"key":"k","value":{"stringValue":"a\nb"}},{"key":"k","value":{"intValue":"-1"}}]}"#,
      #"{}"#,
    ]
    for (index, body) in fast.enumerated() {
      #expect(expectAgreement(request(body), "case \(index): \(body)"), "case \(index)")
    }
    #expect(expectAgreement(Array(#"{}"#.utf8), "an empty request"))
    #expect(expectAgreement(Array(#"{"resourceLogs":[]}"#.utf8), "no resources"))
    #expect(
      expectAgreement(
        Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[]}]}],"resourceLogs":[{}]}"#.utf8),
        "a repeated resourceLogs"))
    #expect(
      expectAgreement(
        request(
          record,
          resource:
            #"{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}],"x":2}"#),
        "a named resource"))
    // Left to the model (the protobuf would differ in order or hold what JSON replaced).
    let slow = [
      #"{"severityNumber":9,"timeUnixNano":"5"}"#,
      #"{"body":{"stringValue":"a"},"body":{"stringValue":"b"}}"#,
      #"{"body":{"stringValue":"a","intValue":1}}"#,
      #"{"attributes":[{"value":{"intValue":1},"key":"k"}]}"#,
      #"{"attributes":[{"key":"k","value":{}}]}"#,
      #"{"body":{"kvlistValue":{"values":[],"values":[{"key":"k"}]}}}"#,
    ]
    for (index, body) in slow.enumerated() {
      #expect(!expectAgreement(request(body), "slow case \(index): \(body)"), "slow \(index)")
    }
  }

  @Test func refusesWhatTheModelRefuses() {
    let bad = [
      #"{"timeUnixNano":"+5"}"#,
      #"{"timeUnixNano":"-1"}"#,
      #"{"timeUnixNano":"18446744073709551616"}"#,
      #"{"timeUnixNano":1.5}"#,
      #"{"timeUnixNano":01}"#,
      #"{"severityNumber":2147483648}"#,
      #"{"flags":4294967296}"#,
      #"{"traceId":"abc"}"#,
      #"{"traceId":"zz"}"#,
      #"{"body":{"intValue":"9223372036854775808"}}"#,
      #"{"body":{"bytesValue":"*"}}"#,
      #"{"body":"text"}"#,
      #"{"severityText":"\ud800"}"#,
      "{\"severityText\":\"\u{1}\"}",
      "{\"attributes\":[{\"key\":\"k\",\"value\":{\"stringValue\":\"abcdefgh\u{1F}ijklmnop\"}}]}",
      "{\"attributes\":[{\"key\":\"tab\u{9}in a key\",\"value\":{\"stringValue\":\"v\"}}]}",
      #"{"attributes":[{"key":"k",}]}"#,
      #"{"attributes":[{"key":"k","value":{"intValue":"9223372036854775808"}}]}"#,
      #"{"attributes":[{"key":"k","value":{"intValue":""}}]}"#,
      #"{"attributes":[{"key":"k","value":{"stringValue":"x"}}}]}"#,
      #"{"attributes":[{"key":"k","value":{"stringValue":"x"}}"#,
    ]
    for (index, body) in bad.enumerated() {
      let json = Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[\#(body)]}]}]}"#.utf8)
      #expect(!expectAgreement(json, "bad case \(index): \(body)"), "bad \(index)")
      #expect(throws: ForwardingError.self) { try OTLP.ExportLogsServiceRequest(json: json) }
    }
    var invalidUTF8 = Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"#.utf8)
    invalidUTF8 += [0x22, 0xC3, 0x28, 0x22] + Array("}]}]}]}".utf8)
    #expect(!expectAgreement(invalidUTF8, "invalid UTF-8"))
    var invalidAttribute = Array(
      #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":"k","value":{"stringValue":"#
        .utf8)
    invalidAttribute += [0x22, 0xED, 0xA0, 0x80, 0x22] + Array("}}]}]}]}]}".utf8)
    #expect(!expectAgreement(invalidAttribute, "a surrogate in an attribute's string"))
    #expect(throws: ForwardingError.self) {
      try OTLP.ExportLogsServiceRequest(json: invalidAttribute)
    }
  }

  @Test func agreesOnDamagedAndRandomBodies() {
    var random = SplitMix64(seed: 0x0DA3_A6ED)
    var transcoded = 0
    var refused = 0
    for index in 0..<1500 {
      var json =
        index % 2 == 0
        ? OTLPSamples.logsRequest.encoded(as: .json)
        : OTLPSamples.randomLogs(&random).encoded(as: .json)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        DecoderInputs.mutate(&json, &random)
      }
      if expectAgreement(json, "damaged body \(index)") { transcoded += 1 }
      if (try? OTLP.ExportLogsServiceRequest(json: json)) == nil { refused += 1 }
    }
    for index in 0..<1500 {
      let json = Array(DecoderInputs.randomJSON(&random, depth: 6, object: true).utf8)
      if expectAgreement(json, "random JSON \(index)") { transcoded += 1 }
    }
    // The damage reached both sides: some bodies still transcode, many are refused.
    #expect(transcoded > 100)
    #expect(refused > 300)
  }

  @Test func nestsNoDeeperThanTheModel() {
    // An attribute of the usual shape as deep as the reader allows, and one level deeper
    // (its value the one object past the limit): wrappers of 4 levels (a kvlist) and of 3
    // (an array) make every depth from 6 on.
    func nested(_ levels: Int) -> [UInt8]? {
      guard let arrays = (0...(levels / 3)).first(where: { (levels - 3 * $0) % 4 == 0 }) else {
        return nil
      }
      var value = #"{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}"#
      for _ in 0..<((levels - 3 * arrays) / 4) {
        value = #"{"kvlistValue":{"values":[{"key":"k","value":\#(value)}]}}"#
      }
      for _ in 0..<arrays { value = #"{"arrayValue":{"values":[\#(value)]}}"# }
      return Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":\#(value)}]}]}]}"#.utf8)
    }
    let accepted = (8..<80).filter { levels in
      nested(levels).map { (try? OTLP.ExportLogsServiceRequest(json: $0)) != nil } ?? false
    }
    guard let deepest = accepted.last, let allowed = nested(deepest),
      let deeper = nested(deepest + 1)
    else {
      Issue.record("no depth accepted")
      return
    }
    #expect(expectAgreement(allowed, "as deep as allowed"))
    #expect(!expectAgreement(deeper, "one level deeper"))
    #expect(throws: ForwardingError.self) { try OTLP.ExportLogsServiceRequest(json: deeper) }
    var value = OTLP.AnyValue.string("deep")
    for _ in 0..<(JSONReader.maximumDepth + 4) { value = .array([value]) }
    var record = OTLP.LogRecord()
    record.body = value
    let json = OTLP.ExportLogsServiceRequest(
      resourceLogs: [OTLP.ResourceLogs(scopeLogs: [OTLP.ScopeLogs(logRecords: [record])])]
    ).encoded(as: .json)
    #expect(!expectAgreement(json, "nested past the limit"))
  }
}
