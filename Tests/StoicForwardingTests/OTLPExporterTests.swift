import StoicForwarding
import StoicStore
import StoicTestSupport
import Synchronization
import Testing

/// A transport that records what it is asked to send and answers from a script.
final class RecordingTransport: Transport {
  let sent = SleepingLock<[TransportRequest]>([])
  let answer: @Sendable (TransportRequest) -> Result<TransportResponse, TransportFailure>

  init(
    _ answer: @escaping @Sendable (TransportRequest) -> Result<TransportResponse, TransportFailure>
  ) {
    self.answer = answer
  }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    sent.withLock { $0.append(request) }
    return try answer(request).get()
  }
}

/// The exporter: the requests it builds (URL, headers, body), its configuration checks, and
/// what it makes of the answers.
@Suite("OTLP exporter")
struct OTLPExporterTests {
  static let secret = "s3cr3t-token-value"

  static func configuration(
    _ encoding: OTLPEncoding = .protobuf, _ compression: OTLPCompression = .gzip
  ) -> OTLPExporterConfiguration {
    OTLPExporterConfiguration(
      endpoint: "https://collector.example:4318/", encoding: encoding, compression: compression,
      headers: ["Authorization": "Bearer \(secret)"])
  }

  @Test(
    "requests carry the encoded body, Content-Type, Content-Encoding, Idempotency-Key and the configured headers"
  )
  func builtRequests() throws {
    for encoding in OTLPEncoding.allCases {
      for compression in [OTLPCompression.none, .gzip, .gzip(level: 9), .zstd, .zstd(level: 19)] {
        let exporter = try OTLPExporter(
          configuration: Self.configuration(encoding, compression),
          transport: RecordingTransport { _ in .failure(.timeout) })
        let logs = try exporter.request(
          for: OTLPSamples.logsRequest, signal: .logs, idempotencyKey: "batch-7")
        #expect(logs.url == "https://collector.example:4318/v1/logs")
        #expect(logs.method == "POST")
        #expect(logs.headers["content-type"] == encoding.contentType)
        #expect(logs.headers["Idempotency-Key"] == "batch-7")
        #expect(logs.headers["Authorization"] == "Bearer \(Self.secret)")
        var body = logs.body
        switch compression {
        case .none:
          #expect(!logs.headers.contains("Content-Encoding"))
        case .gzip:
          #expect(logs.headers["Content-Encoding"] == "gzip")
          body = try Gzip.decompress(body, maxOutputSize: 1 << 20)
        case .zstd:
          #expect(logs.headers["Content-Encoding"] == "zstd")
          body = try Zstd.decompress(body, maxOutputSize: 1 << 20)
        }
        #expect(
          try OTLP.ExportLogsServiceRequest(decoding: body, as: encoding) == OTLPSamples.logsRequest
        )
        let metrics = try exporter.request(
          for: OTLPSamples.metricsRequest, signal: .metrics, idempotencyKey: nil)
        #expect(metrics.url == "https://collector.example:4318/v1/metrics")
        #expect(!metrics.headers.contains("Idempotency-Key"))
      }
    }
  }

  @Test("a request goes to its own signal's path: the default, or the one set for that signal")
  func requestsFindTheirSignal() async throws {
    var configuration = OTLPExporterConfiguration(
      endpoint: "http://127.0.0.1:4318/base?tenant=1", logsPath: "/in/logs")
    configuration.signalPaths[.traces] = "/in/spans"
    #expect(configuration.logsPath == "/in/logs")
    #expect(configuration.metricsPath == "/v1/metrics")
    #expect(configuration.tracesPath == "/in/spans")
    configuration.metricsPath = "/in/metrics"
    #expect(configuration.path(for: .metrics) == "/in/metrics")
    #expect(OTLP.ExportLogsServiceRequest.signal == .logs)
    #expect(OTLP.ExportMetricsServiceRequest.signal == .metrics)
    #expect(OTLP.ExportTraceServiceRequest.signal == .traces)
    let transport = RecordingTransport { _ in .success(TransportResponse(status: 200)) }
    let exporter = try OTLPExporter(configuration: configuration, transport: transport)
    _ = try await exporter.export(OTLPSamples.logsRequest, idempotencyKey: "l")
    _ = try await exporter.export(OTLPSamples.metricsRequest, idempotencyKey: "m")
    _ = try await exporter.export(
      OTLP.ExportTraceServiceRequest(resourceSpans: []), idempotencyKey: "t")
    #expect(
      transport.sent.withLock { $0.map(\.url) } == [
        "http://127.0.0.1:4318/base/in/logs?tenant=1",
        "http://127.0.0.1:4318/base/in/metrics?tenant=1",
        "http://127.0.0.1:4318/base/in/spans?tenant=1",
      ])
  }

  @Test("a report counts each stream's delivered items; reports of equal counts are equal")
  func reportCountsByStream() {
    var report = ForwardingReport()
    report.addDelivered(3, of: .logs)
    report.spansDelivered += 4
    report.dataPointsDelivered = 2
    #expect(report.logRecordsDelivered == 3)
    #expect(report.delivered(.traces) == 4)
    #expect(report.delivered(.metrics) == 2)
    #expect(report.recordsDelivered == 9)
    var total = ForwardingReport()
    total.add(report)
    total.add(report)
    #expect(
      total.delivered(.logs) == 6 && total.spansDelivered == 8 && total.recordsDelivered == 18)
    report.dataPointsDelivered = 0
    report.addDelivered(-4, of: .traces)
    var logsOnly = ForwardingReport()
    logsOnly.logRecordsDelivered = 3
    #expect(report == logsOnly)
    #expect(report.hashValue == logsOnly.hashValue)
  }

  @Test("the same records and key give the same body, every time")
  func deterministicBodies() throws {
    let exporter = try OTLPExporter(
      configuration: Self.configuration(), transport: RecordingTransport { _ in .failure(.timeout) }
    )
    let first = try exporter.request(
      for: OTLPSamples.logsRequest, signal: .logs, idempotencyKey: "k")
    _ = try exporter.request(for: OTLPSamples.metricsRequest, signal: .metrics, idempotencyKey: "m")
    let second = try exporter.request(
      for: OTLPSamples.logsRequest, signal: .logs, idempotencyKey: "k")
    #expect(first.body == second.body)
    #expect(first.headers == second.headers)
  }

  @Test("bodies encoded and compressed on several threads at once are each their own, whole")
  func concurrentEncodings() async throws {
    let exporter = try OTLPExporter(
      configuration: Self.configuration(), transport: RecordingTransport { _ in .failure(.timeout) }
    )
    // Bodies of different sizes, so that a compressor or buffer shared between two encodings
    // would mix them up.
    let bodies = (0..<8).map { index in
      (0..<(20_000 + index * 7_919)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3) >> 5) }
    }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for (index, body) in bodies.enumerated() {
        group.addTask {
          var wrong = 0
          for _ in 0..<25 {
            let encoded = try? exporter.encode(protobuf: body, signal: .logs)
            let back = encoded.flatMap { try? Gzip.decompress($0.bytes, maxOutputSize: 1 << 20) }
            if back != bodies[index] { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test("export sends once and maps the answer; no answer is a network error or a timeout")
  func exportMapsAnswers() async throws {
    let transport = RecordingTransport { request in
      switch request.headers["Idempotency-Key"] {
      case "ok": .success(TransportResponse(status: 200))
      case "busy": .success(TransportResponse(status: 503, headers: ["Retry-After": "2"]))
      case "bad": .success(TransportResponse(status: 400))
      case "slow": .failure(.timeout)
      default: .failure(.network("connection refused"))
      }
    }
    let exporter = try OTLPExporter(configuration: Self.configuration(), transport: transport)
    let logs = OTLPSamples.logsRequest
    #expect(try await exporter.export(logs, idempotencyKey: "ok") == .http(status: 200))
    #expect(
      try await exporter.export(logs, idempotencyKey: "busy")
        == .http(status: 503, retryAfter: "2"))
    #expect(try await exporter.export(logs, idempotencyKey: "bad") == .http(status: 400))
    #expect(try await exporter.export(logs, idempotencyKey: "slow") == .timeout)
    #expect(
      try await exporter.export(OTLPSamples.metricsRequest, idempotencyKey: "down")
        == .networkError("connection refused"))
    #expect(transport.sent.withLock { $0.count } == 5)
  }

  @Test("a body over the limit is not sent, and answered as a receiver would (413)")
  func oversizedBody() async throws {
    var configuration = Self.configuration()
    configuration.maximumBodyBytes = 100
    let transport = RecordingTransport { _ in .success(TransportResponse(status: 200)) }
    let exporter = try OTLPExporter(configuration: configuration, transport: transport)
    #expect(
      try await exporter.export(OTLPSamples.logsRequest, idempotencyKey: "k") == .http(status: 413))
    #expect(transport.sent.withLock { $0.isEmpty })
    #expect(
      FailureClassifier.standard.classify(.http(status: 413), nowMilliseconds: 0)
        == .permanent(reason: "HTTP 413"))
  }

  @Test("an idempotency key that cannot be a header value is refused")
  func badKeys() throws {
    let exporter = try OTLPExporter(
      configuration: Self.configuration(), transport: RecordingTransport { _ in .failure(.timeout) }
    )
    for key in ["", "a b", "line\r\nX-Injected: 1", "é"] {
      #expect {
        try exporter.request(for: OTLPSamples.logsRequest, signal: .logs, idempotencyKey: key)
      } throws: { error in
        (error as? ForwardingError)?.code == .invalidArgument
      }
    }
  }

  @Test(
    "configurations that cannot work are refused, naming the problem and never a header value",
    arguments: [
      OTLPExporterConfiguration(endpoint: "ftp://host"),
      OTLPExporterConfiguration(endpoint: "https://"),
      OTLPExporterConfiguration(endpoint: "collector:4318"),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["Content-Type": "text/plain"]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["idempotency-key": "x"]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["X-Key": "\(secret)\r\nEvil: 1"]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["Bad Name": secret]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["X-Key": "\(secret)\u{01}"]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["X-Key": "\(secret)\u{1B}[2J"]),
      OTLPExporterConfiguration(endpoint: "http://h", headers: ["X-Key": "\(secret)\u{7F}"]),
      OTLPExporterConfiguration(endpoint: "http://\(secret):pw@h:4318"),
      OTLPExporterConfiguration(endpoint: "http://h", compression: .gzip(level: 11)),
      OTLPExporterConfiguration(endpoint: "http://h", compression: .zstd(level: 0)),
      OTLPExporterConfiguration(endpoint: "http://h", compression: .zstd(level: 20)),
    ])
  func invalidConfigurations(configuration: OTLPExporterConfiguration) {
    #expect {
      try OTLPExporter(
        configuration: configuration, transport: RecordingTransport { _ in .failure(.timeout) })
    } throws: { error in
      guard let error = error as? ForwardingError else { return false }
      return error.code == .invalidArgument && !"\(error)".contains(Self.secret)
    }
  }

  @Test("header lists from the environment, in OpenTelemetry's format")
  func environmentHeaders() throws {
    var configuration = OTLPExporterConfiguration(endpoint: "http://127.0.0.1:4318")
    try configuration.addHeaders(fromEnvironment: [
      "STOIC_OTLP_HEADERS": " Authorization=Bearer%20\(Self.secret) , x-api-key = k=v ,"
    ])
    #expect(configuration.headers["authorization"] == "Bearer \(Self.secret)")
    #expect(configuration.headers["X-Api-Key"] == "k=v")
    try configuration.addHeaders(fromEnvironment: [:])
    #expect(configuration.headers.fields.count == 2)
    for bad in [Self.secret, "=\(Self.secret)", "a=\(Self.secret)%zz", "a=\(Self.secret)%e9"] {
      #expect {
        try configuration.addHeaders(fromEnvironment: ["H": bad], variable: "H")
      } throws: { error in
        guard let error = error as? ForwardingError else { return false }
        return error.code == .invalidArgument && !"\(error)".contains(Self.secret)
      }
    }
  }

  @Test("printing a request, its headers or a configuration never shows a header value")
  func secretsHidden() throws {
    let exporter = try OTLPExporter(
      configuration: Self.configuration(), transport: RecordingTransport { _ in .failure(.timeout) }
    )
    let request = try exporter.request(
      for: OTLPSamples.logsRequest, signal: .logs, idempotencyKey: "k")
    var dumped = ""
    dump(request, to: &dumped)
    var dumpedConfiguration = ""
    dump(exporter.configuration, to: &dumpedConfiguration)
    let renderings = [
      "\(request)", String(reflecting: request), "\(request.headers)",
      String(reflecting: request.headers), dumped, dumpedConfiguration,
      "\(exporter.configuration)",
    ]
    for text in renderings {
      #expect(!text.contains(Self.secret), "\(text)")
    }
    #expect("\(request)".contains("POST /v1/logs"))
    #expect("\(request.headers)".contains("Authorization: <hidden>"))
  }
}
