import StoicTestSupport
import StoicTesting
import Testing

@testable import StoicCollector
@testable import StoicForwarding

/// The collector's check-and-count walk over a protobuf logs request agrees with the decoder:
/// the same counts and resources for what it accepts, the same error for what it refuses.
@Suite struct OTLPLogsProtobufSummaryTests {
  /// What the decoder makes of `body`: each resource's record count and the resources'
  /// encoding, or its error.
  func viaDecoder(_ body: [UInt8]) -> Result<([Int], [UInt8]), ForwardingError> {
    Result { () throws(ForwardingError) in
      let request = try OTLP.ExportLogsServiceRequest(protobuf: body)
      return (
        request.resourceLogs.map { $0.scopeLogs.reduce(0) { $0 + $1.logRecords.count } },
        resources(request.resourceLogs.map(\.resource))
      )
    }
  }

  func viaSummary(_ body: [UInt8]) -> Result<([Int], [UInt8]), ForwardingError> {
    Result { () throws(ForwardingError) in
      let summary = try OTLPLogsProtobufSummary.summarize(body)
      return (summary.map(\.logRecords), resources(summary.map(\.resource)))
    }
  }

  /// Resources compared as their encoding (a NaN attribute is never equal to itself).
  func resources(_ resources: [OTLP.Resource?]) -> [UInt8] {
    OTLP.ExportLogsServiceRequest(resourceLogs: resources.map { OTLP.ResourceLogs(resource: $0) })
      .encoded(as: .protobuf)
  }

  func expectAgreement(_ body: [UInt8], _ what: String) {
    switch (viaDecoder(body), viaSummary(body)) {
    case (.success(let decoded), .success(let summarized)):
      #expect(decoded.0 == summarized.0, "\(what): counts")
      #expect(decoded.1 == summarized.1, "\(what): resources")
    case (.failure(let decoderError), .failure(let summaryError)):
      #expect(decoderError == summaryError, "\(what)")
    case (let decoded, let summarized):
      Issue.record("\(what): the decoder gave \(decoded), the summary \(summarized)")
    }
  }

  @Test func countsWhatTheDecoderCounts() throws {
    let body = OTLPSamples.logsRequest.encoded(as: .protobuf)
    let summary = try OTLPLogsProtobufSummary.summarize(body)
    #expect(
      summary.map(\.logRecords)
        == OTLPSamples.logsRequest.resourceLogs.map {
          $0.scopeLogs.reduce(0) { $0 + $1.logRecords.count }
        })
    #expect(summary.map(\.logRecords).reduce(0, +) == OTLPSamples.logsRequest.logRecordCount)
    #expect(summary.map(\.resource) == OTLPSamples.logsRequest.resourceLogs.map(\.resource))
    var random = SplitMix64(seed: 0x5EED)
    for index in 0..<200 {
      expectAgreement(
        OTLPSamples.randomLogs(&random).encoded(as: .protobuf), "random request \(index)")
    }
  }

  @Test func refusesWhatTheDecoderRefusesWithTheSameError() {
    let body = OTLPSamples.logsRequest.encoded(as: .protobuf)
    var refused = 0
    for length in 0..<body.count {
      let cut = Array(body.prefix(length))
      if case .failure = viaDecoder(cut) { refused += 1 }
      expectAgreement(cut, "the first \(length) bytes")
    }
    for index in body.indices {
      for bit in [0, 5, 7] {
        var flipped = body
        flipped[index] ^= 1 << bit
        if case .failure = viaDecoder(flipped) { refused += 1 }
        expectAgreement(flipped, "bit \(bit) of byte \(index) flipped")
      }
    }
    // The damage reached the checks: most cuts and many flips are refused.
    #expect(refused > body.count)
  }

  @Test func nestsNoDeeperThanTheDecoder() {
    // An attribute value nested far deeper than the reader allows.
    var value = OTLP.AnyValue.string("deep")
    for _ in 0..<(ProtobufReader.maximumDepth + 4) { value = .array([value]) }
    var record = OTLP.LogRecord()
    record.attributes = [OTLP.KeyValue("k", value)]
    let body = OTLP.ExportLogsServiceRequest(
      resourceLogs: [OTLP.ResourceLogs(scopeLogs: [OTLP.ScopeLogs(logRecords: [record])])]
    ).encoded(as: .protobuf)
    guard case .failure(let error) = viaSummary(body) else {
      Issue.record("the summary accepted a value nested past the limit")
      return
    }
    #expect(error.code == .tooDeep)
    expectAgreement(body, "nested past the limit")
  }
}
