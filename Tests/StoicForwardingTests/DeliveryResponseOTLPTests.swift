import StoicForwarding
import StoicStore
import Testing

/// What OTLP/HTTP answers mean to the outbox: the mapping onto `DeliveryResponse`, and the
/// decision the outbox's standard classifier then makes.
@Suite("OTLP answers as outbox decisions")
struct DeliveryResponseOTLPTests {
  static func decide(_ response: TransportResponse, _ signal: OTLPSignal = .logs)
    -> DeliveryClassification
  {
    FailureClassifier.standard.classify(
      DeliveryResponse(otlp: response, signal: signal), nowMilliseconds: 0)
  }

  @Test(
    "statuses: 2xx delivered; 408, 425, 429, 5xx transient with Retry-After; other 4xx permanent",
    arguments: [
      (200, nil, DeliveryClassification.delivered(rejected: 0)),
      (202, nil, .delivered(rejected: 0)),
      (400, nil, .permanent(reason: "HTTP 400")),
      (404, nil, .permanent(reason: "HTTP 404")),
      (413, nil, .permanent(reason: "HTTP 413")),
      (422, nil, .permanent(reason: "HTTP 422")),
      (408, nil, .transient(reason: "HTTP 408", retryAfter: nil)),
      (425, "3", .transient(reason: "HTTP 425", retryAfter: .seconds(3))),
      (429, "7", .transient(reason: "HTTP 429", retryAfter: .seconds(7))),
      (500, nil, .transient(reason: "HTTP 500", retryAfter: nil)),
      (502, nil, .transient(reason: "HTTP 502", retryAfter: nil)),
      (503, "120", .transient(reason: "HTTP 503", retryAfter: .seconds(120))),
      (504, nil, .transient(reason: "HTTP 504", retryAfter: nil)),
    ] as [(Int, String?, DeliveryClassification)])
  func statuses(status: Int, retryAfter: String?, expected: DeliveryClassification) {
    var headers = HTTPHeaders()
    if let retryAfter { headers.add("retry-after", retryAfter) }
    #expect(Self.decide(TransportResponse(status: status, headers: headers)) == expected)
  }

  @Test("a partial success is delivered with its rejected count, in either encoding, gzip too")
  func partialSuccess() throws {
    let logs = OTLP.ExportLogsServiceResponse(
      partialSuccess: OTLP.ExportLogsPartialSuccess(rejectedLogRecords: 4, errorMessage: "bad ts"))
    for encoding in OTLPEncoding.allCases {
      for gzip in [false, true] {
        var body = logs.encoded(as: encoding)
        var headers: HTTPHeaders = ["Content-Type": encoding.contentType]
        if gzip {
          body = try Gzip.compress(body)
          headers.add("Content-Encoding", "gzip")
        }
        let response = TransportResponse(status: 200, headers: headers, body: body)
        #expect(
          DeliveryResponse(otlp: response, signal: .logs)
            == .partialSuccess(rejected: 4, message: "bad ts"))
        #expect(Self.decide(response) == .delivered(rejected: 4))
      }
    }
    let metrics = OTLP.ExportMetricsServiceResponse(
      partialSuccess: OTLP.ExportMetricsPartialSuccess(rejectedDataPoints: 2))
    let response = TransportResponse(
      status: 200, headers: ["Content-Type": "application/x-protobuf"],
      body: metrics.encoded(as: .protobuf))
    #expect(DeliveryResponse(otlp: response, signal: .metrics) == .partialSuccess(rejected: 2))
  }

  @Test("a full success, a warning, an undecodable or cut body: delivered, nothing rejected")
  func plainSuccess() {
    let warning = OTLP.ExportLogsServiceResponse(
      partialSuccess: OTLP.ExportLogsPartialSuccess(errorMessage: "deprecated field"))
    let cases: [TransportResponse] = [
      TransportResponse(status: 200),
      TransportResponse(status: 200, body: OTLP.ExportLogsServiceResponse().encoded(as: .protobuf)),
      TransportResponse(status: 200, body: [0xFF, 0xFF]),
      TransportResponse(
        status: 200, body: warning.encoded(as: .protobuf), isBodyComplete: false),
    ]
    for response in cases {
      #expect(DeliveryResponse(otlp: response, signal: .logs) == .http(status: 200))
      #expect(Self.decide(response) == .delivered(rejected: 0))
    }
    let withWarning = TransportResponse(status: 200, body: warning.encoded(as: .protobuf))
    #expect(
      DeliveryResponse(otlp: withWarning, signal: .logs)
        == .partialSuccess(rejected: 0, message: "deprecated field"))
    #expect(Self.decide(withWarning) == .delivered(rejected: 0))
  }

  @Test("no answer at all: a network error or a timeout, both transient")
  func failures() {
    #expect(DeliveryResponse(otlp: TransportFailure.timeout) == .timeout)
    #expect(
      DeliveryResponse(otlp: TransportFailure.network("connection refused"))
        == .networkError("connection refused"))
    #expect(
      FailureClassifier.standard.classify(
        DeliveryResponse(otlp: TransportFailure.network("connection refused")), nowMilliseconds: 0)
        == .transient(reason: "network error: connection refused", retryAfter: nil))
  }
}
