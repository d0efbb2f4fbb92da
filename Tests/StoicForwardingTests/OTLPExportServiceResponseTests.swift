import Testing

@testable import StoicForwarding

/// Every signal's `Export…ServiceResponse` through the one codec they share
/// (``OTLPExportServiceResponse``): the same field numbers in protobuf, the signal's own key for
/// the rejected count in JSON, and what the forwarder reads of a success body.
@Suite("OTLP export responses")
struct OTLPExportServiceResponseTests {
  /// Each signal's response type with its JSON key, as the specification's `.proto` files name
  /// it.
  static var signals: [(any OTLPExportServiceResponse.Type, String, any ForwardedSignal.Type)] {
    [
      (OTLP.ExportLogsServiceResponse.self, "rejectedLogRecords", LogsSignal.self),
      (OTLP.ExportMetricsServiceResponse.self, "rejectedDataPoints", MetricsSignal.self),
      (OTLP.ExportTraceServiceResponse.self, "rejectedSpans", TracesSignal.self),
    ]
  }

  @Test("every signal's partial success: the bytes of the .proto files, its JSON key, read back")
  func everySignal() throws {
    for (type, key, signal) in Self.signals {
      try check(type, key: key, signal: signal)
    }
  }

  private func check<Response: OTLPExportServiceResponse>(
    _ type: Response.Type, key: String, signal: any ForwardedSignal.Type
  ) throws {
    #expect("\(Response.rejectedCountKey)" == key)
    let partial = Response(rejection: (count: 3, message: "no"))
    // partial_success (1) { rejected (1): 3, error_message (2): "no" }
    let protobuf: [UInt8] = [0x0A, 0x06, 0x08, 0x03, 0x12, 0x02, 0x6E, 0x6F]
    #expect(partial.encoded(as: .protobuf) == protobuf)
    let json = #"{"partialSuccess":{""# + key + #"":"3","errorMessage":"no"}}"#
    #expect(String(decoding: partial.encoded(as: .json), as: UTF8.self) == json)
    for (bytes, encoding) in [(protobuf, OTLPEncoding.protobuf), (Array(json.utf8), .json)] {
      let read = try Response(decoding: bytes, as: encoding)
      #expect(read == partial)
      #expect(read.rejection?.count == 3 && read.rejection?.message == "no")
      let seen = signal.partialSuccess(in: bytes, as: encoding)
      #expect(seen?.count == 3 && seen?.message == "no")
    }
    // Another signal's key is not this signal's count.
    let other = #"{"partialSuccess":{"rejectedOther":"9"}}"#
    #expect(try Response(json: Array(other.utf8)).rejection?.count == 0)
    let full = Response(rejection: nil)
    #expect(full.encoded(as: .protobuf) == [])
    #expect(full.encoded(as: .json) == Array("{}".utf8))
    #expect(try Response(protobuf: []).rejection == nil)
    #expect(signal.partialSuccess(in: Array("not json".utf8), as: .json) == nil)
  }
}
