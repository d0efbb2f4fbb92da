import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting
import Testing

/// The semantic conventions on what the forwarder sends: code location and exception
/// attributes, `telemetry.sdk.*`, the scope's name and version, the severity mapping.
@Suite("Semantic conventions")
struct SemanticConventionsTests {
  static func record(
    file: String = "App/Checkout.swift", metadata: LogMetadata = [:]
  ) -> LogRecord {
    LogRecord(
      sequence: 4, timeNanoseconds: 1_000, level: .error, label: "app", message: "failed",
      metadata: metadata, source: "App", file: file, function: "pay(order:)", line: 42)
  }

  @Test("current code.* names by default; with currentAndDeprecated the old ones follow")
  func codeAttributes() {
    let current = LogRecordMapping.otlp(Self.record())
    #expect(current.string("code.file.path") == "App/Checkout.swift")
    #expect(current.string("code.function.name") == "pay(order:)")
    #expect(current.integer("code.line.number") == 42)
    for old in ["code.filepath", "code.function", "code.lineno"] {
      #expect(current.attribute(old) == nil, "\(old)")
    }
    let both = LogRecordMapping.otlp(Self.record(), codeAttributes: .currentAndDeprecated)
    #expect(both.string("code.file.path") == "App/Checkout.swift")
    #expect(both.string("code.filepath") == "App/Checkout.swift")
    #expect(both.string("code.function") == "pay(order:)")
    #expect(both.integer("code.lineno") == 42)
    #expect(both.integer("code.line.number") == 42)
  }

  @Test("a metadata key Stoic derives, or an empty one, is dropped and counted: keys stay unique")
  func reservedKeys() {
    let metadata: LogMetadata = [
      "log.label": .string("forged"), "log.source": .string("Forged"),
      "stoic.sequence": .string("99"), "code.line.number": .string("1"),
      "code.lineno": .string("2"), "": .string("empty"), "user": .string("u"),
    ]
    let current = LogRecordMapping.otlp(Self.record(metadata: metadata))
    let keys = current.attributes.map(\.key)
    #expect(keys.count == Set(keys).count && !keys.contains(""), "\(keys)")
    #expect(current.string("log.label") == "app")
    #expect(current.string("log.source") == "App")
    #expect(current.integer("stoic.sequence") == 4)
    #expect(current.integer("code.line.number") == 42)
    #expect(current.string("user") == "u")
    // `code.lineno` is not a name Stoic sends under `.current`: the user's own, kept.
    #expect(current.string("code.lineno") == "2")
    #expect(current.droppedAttributesCount == 5)
    let both = LogRecordMapping.otlp(
      Self.record(metadata: metadata), codeAttributes: .currentAndDeprecated)
    #expect(both.integer("code.lineno") == 42)
    #expect(both.droppedAttributesCount == 6)
    let plain = LogRecordMapping.otlp(Self.record(metadata: ["user": .string("u")]))
    #expect(plain.droppedAttributesCount == 0)
  }

  @Test("exception.type and exception.message in the metadata arrive as attributes by those names")
  func exceptionAttributes() {
    let record = LogRecordMapping.otlp(
      Self.record(metadata: [
        "exception.type": .string("PaymentError"), "exception.message": .string("declined"),
      ]))
    #expect(record.string("exception.type") == "PaymentError")
    #expect(record.string("exception.message") == "declined")
  }

  @Test("critical is FATAL (21), error ERROR (17), notice INFO2 (10)")
  func severities() {
    #expect(LogRecordMapping.severity(.critical).rawValue == 21)
    #expect(LogRecordMapping.severity(.error).rawValue == 17)
    #expect(LogRecordMapping.severity(.notice).rawValue == 10)
  }

  @Test("OTEL_SEMCONV_STABILITY_OPT_IN=code/dup asks for both names")
  func optIn() throws {
    #expect(try OTelEnvironment([:]).codeAttributes == .current)
    #expect(
      try OTelEnvironment(["OTEL_SEMCONV_STABILITY_OPT_IN": "http, code/dup"]).codeAttributes
        == .currentAndDeprecated)
    #expect(
      try OTelEnvironment(["OTEL_SEMCONV_STABILITY_OPT_IN": "code"]).codeAttributes == .current)
  }

  @Test("logs and metrics carry telemetry.sdk.* on the resource and the scope's version")
  func resourceAndScope() async throws {
    try await ForwarderFixture.run(records: 0..<2) { spool, receiver, forwarder in
      spool.metrics.counter(label: "c").increment()
      try spool.flush()
      try await forwarder.drain()
      let requests = receiver.state.withLock { $0.requests }
      let logs = try #require(requests.first { $0.path == "/v1/logs" })
      let metrics = try #require(requests.first { $0.path == "/v1/metrics" })
      let logsRequest = try OTLP.ExportLogsServiceRequest(decoding: logs.body, as: .protobuf)
      let metricsRequest = try OTLP.ExportMetricsServiceRequest(
        decoding: metrics.body, as: .protobuf)
      let resources = [
        logsRequest.resourceLogs.first?.resource, metricsRequest.resourceMetrics.first?.resource,
      ]
      for resource in resources {
        #expect(resource?.stringAttribute("telemetry.sdk.name") == "stoic")
        #expect(resource?.stringAttribute("telemetry.sdk.language") == "swift")
        #expect(resource?.stringAttribute("telemetry.sdk.version") == TelemetrySDK.version)
      }
      let scopes = [
        logsRequest.resourceLogs.first?.scopeLogs.first?.scope,
        metricsRequest.resourceMetrics.first?.scopeMetrics.first?.scope,
      ]
      for scope in scopes {
        #expect(scope?.name == "stoic")
        #expect(scope?.version == TelemetrySDK.version)
      }
    }
  }
}
