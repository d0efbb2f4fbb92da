import StoicForwarding
import StoicTestSupport
import Testing

/// OpenTelemetry's environment variables, against the examples of the specification's
/// "OTLP Exporter Configuration" and "Environment Variable Specification" pages.
@Suite("OpenTelemetry environment")
struct OTelEnvironmentTests {
  static let secret = "s3cr3t-env-token"

  struct EndpointCase: Sendable, CustomTestStringConvertible {
    var variables: [String: String]
    var logs: String
    var metrics: String
    var testDescription: String { variables.sorted { $0.key < $1.key }.description }
  }

  @Test(
    "endpoint joining and per-signal precedence, as the specification's examples",
    arguments: [
      // "Endpoint URLs for OTLP/HTTP": the base URL gets v1/<signal> joined to its path.
      EndpointCase(
        variables: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"],
        logs: "http://collector:4318/v1/logs", metrics: "http://collector:4318/v1/metrics"),
      EndpointCase(
        variables: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://my-api-endpoint/"],
        logs: "http://my-api-endpoint/v1/logs", metrics: "http://my-api-endpoint/v1/metrics"),
      EndpointCase(
        variables: ["OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.example.com/mycollector/"],
        logs: "https://collector.example.com/mycollector/v1/logs",
        metrics: "https://collector.example.com/mycollector/v1/metrics"),
      EndpointCase(
        variables: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/mycollector"],
        logs: "http://collector:4318/mycollector/v1/logs",
        metrics: "http://collector:4318/mycollector/v1/metrics"),
      // Per-signal endpoints are used as they are, with no path added, and win.
      EndpointCase(
        variables: [
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
          "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://logs.example:4318",
        ],
        logs: "http://logs.example:4318", metrics: "http://collector:4318/v1/metrics"),
      EndpointCase(
        variables: ["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "https://m.example/custom/path/"],
        logs: "http://localhost:4318/v1/logs", metrics: "https://m.example/custom/path/"),
      // An empty variable counts as unset.
      EndpointCase(
        variables: [
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
          "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "",
        ],
        logs: "http://collector:4318/v1/logs", metrics: "http://collector:4318/v1/metrics"),
    ])
  func endpoints(_ row: EndpointCase) throws {
    let exporter = try #require(try OTelEnvironment(row.variables).exporter)
    #expect(exporter.url(for: .logs) == row.logs)
    #expect(exporter.url(for: .metrics) == row.metrics)
    #expect(throws: Never.self) { try exporter.validate() }
  }

  @Test("no endpoint variable: no exporter")
  func noEndpoint() throws {
    #expect(try OTelEnvironment([:]).exporter == nil)
    #expect(try OTelEnvironment(["OTEL_EXPORTER_OTLP_HEADERS": "a=b"]).exporter == nil)
  }

  @Test("headers: percent-decoded, per-signal headers replace the generic ones for that signal")
  func headers() throws {
    let environment = try OTelEnvironment([
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
      "OTEL_EXPORTER_OTLP_HEADERS": "api-key=key%3Dwith%20space , Authorization=Basic%20abc",
      "OTEL_EXPORTER_OTLP_METRICS_HEADERS": "x-metrics=1",
    ])
    let exporter = try #require(environment.exporter)
    #expect(exporter.headers(for: .logs)["api-key"] == "key=with space")
    #expect(exporter.headers(for: .logs)["authorization"] == "Basic abc")
    #expect(exporter.headers(for: .metrics).names == ["x-metrics"])
    #expect(exporter.headers(for: .metrics)["x-metrics"] == "1")
  }

  @Test("STOIC_OTLP_HEADERS is an alias used only when OTEL_EXPORTER_OTLP_HEADERS is unset")
  func headersAlias() throws {
    let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
    let alias = try OTelEnvironment(endpoint.merging(["STOIC_OTLP_HEADERS": "a=1"]) { $1 })
    #expect(alias.exporter?.headers["a"] == "1")
    let both = try OTelEnvironment(
      endpoint.merging(["STOIC_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_HEADERS": "b=2"]) {
        $1
      })
    #expect(both.exporter?.headers.names == ["b"])
  }

  @Test("protocol, compression and timeout, generic and per signal")
  func options() throws {
    let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
    func exporter(_ extra: [String: String]) throws -> OTLPExporterConfiguration? {
      try OTelEnvironment(endpoint.merging(extra) { $1 }).exporter
    }
    #expect(try exporter([:])?.encoding == .protobuf)
    #expect(try exporter([:])?.compression == .gzip)
    #expect(try exporter(["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"])?.encoding == .json)
    #expect(try exporter(["OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"])?.encoding == .protobuf)
    #expect(
      try exporter(["OTEL_EXPORTER_OTLP_COMPRESSION": "none"])?.compression == OTLPCompression.none)
    #expect(try exporter(["OTEL_EXPORTER_OTLP_COMPRESSION": "gzip"])?.compression == .gzip)
    #expect(try exporter(["OTEL_EXPORTER_OTLP_COMPRESSION": " ZSTD "])?.compression == .zstd)
    #expect(try exporter(["OTEL_EXPORTER_OTLP_TIMEOUT": "2500"])?.timeout == .milliseconds(2500))
    let perSignal = try exporter([
      "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
      "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "http/json",
      "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/json",
    ])
    #expect(perSignal?.encoding == .json)
    // Traces set apart must agree with the others; unset, they follow them.
    #expect(throws: ForwardingError.self) {
      try exporter([
        "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "http/json",
        "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/json",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
      ])
    }
    // Traces alone set apart from the generic value: they disagree with logs and metrics.
    #expect(throws: ForwardingError.self) {
      try exporter([
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json",
      ])
    }
    let traces = try exporter([
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4318/custom/traces",
      "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "x-t=1",
    ])
    #expect(traces?.url(for: .traces) == "http://t:4318/custom/traces")
    #expect(traces?.url(for: .logs) == "http://c:4318/v1/logs")
    #expect(traces?.headers(for: .traces).names == ["x-t"])
    #expect(try exporter([:])?.url(for: .traces) == "http://c:4318/v1/traces")
  }

  struct BadCase: Sendable, CustomTestStringConvertible {
    var variable: String
    var value: String
    var code: ForwardingError.Code
    var testDescription: String { variable }
  }

  @Test(
    "bad values throw a typed error naming the variable, never holding the value",
    arguments: [
      BadCase(variable: "OTEL_EXPORTER_OTLP_HEADERS", value: secret, code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_HEADERS", value: "a=\(secret)%zz", code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_LOGS_HEADERS", value: "a=\(secret)%0D%0AX: 1",
        code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_HEADERS", value: "Content-Type=\(secret)",
        code: .invalidArgument),
      BadCase(variable: "STOIC_OTLP_HEADERS", value: "=\(secret)", code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_ENDPOINT", value: "ftp://\(secret)@h",
        code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", value: "\(secret):4318",
        code: .invalidArgument),
      BadCase(variable: "OTEL_EXPORTER_OTLP_PROTOCOL", value: "grpc", code: .unsupported),
      BadCase(variable: "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", value: "grpc", code: .unsupported),
      BadCase(variable: "OTEL_EXPORTER_OTLP_PROTOCOL", value: secret, code: .invalidArgument),
      BadCase(variable: "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", value: "http/json", code: .unsupported),
      BadCase(variable: "OTEL_EXPORTER_OTLP_COMPRESSION", value: secret, code: .invalidArgument),
      BadCase(variable: "OTEL_EXPORTER_OTLP_TIMEOUT", value: secret, code: .invalidArgument),
      BadCase(variable: "OTEL_EXPORTER_OTLP_TIMEOUT", value: "-5", code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_CERTIFICATE", value: "/\(secret).pem", code: .unsupported),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_LOGS_CLIENT_KEY", value: "/\(secret).pem", code: .unsupported),
      BadCase(
        variable: "OTEL_RESOURCE_ATTRIBUTES", value: "k=\(secret)%g0", code: .invalidArgument),
    ])
  func badValues(_ row: BadCase) {
    var variables = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
    variables[row.variable] = row.value
    #expect {
      try OTelEnvironment(variables)
    } throws: { error in
      guard let error = error as? ForwardingError else { return false }
      let printed = ["\(error)", String(reflecting: error), error.message]
      return error.code == row.code && error.variable == row.variable
        && printed.allSatisfy { $0.contains(row.variable) && !$0.contains(Self.secret) }
    }
  }

  @Test(
    "ignoringInvalid: each bad value is ignored as if unset, named once, and the rest applies",
    arguments: [
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_HEADERS", value: "a=\(secret)%zz", code: .invalidArgument),
      BadCase(variable: "OTEL_EXPORTER_OTLP_PROTOCOL", value: "grpc", code: .unsupported),
      BadCase(variable: "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", value: "http/json", code: .unsupported),
      BadCase(variable: "OTEL_EXPORTER_OTLP_TIMEOUT", value: secret, code: .invalidArgument),
      BadCase(
        variable: "OTEL_EXPORTER_OTLP_CERTIFICATE", value: "/\(secret).pem", code: .unsupported),
      BadCase(
        variable: "OTEL_RESOURCE_ATTRIBUTES", value: "k=\(secret)%g0", code: .invalidArgument),
    ])
  func ignoringInvalid(_ row: BadCase) throws {
    var variables = [
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "checkout",
    ]
    variables[row.variable] = row.value
    let environment = OTelEnvironment.ignoringInvalid(variables)
    #expect(environment.ignored.map(\.variable) == [row.variable])
    #expect(environment.ignored.map(\.code) == [row.code])
    #expect(environment.ignored.allSatisfy { !"\($0)".contains(Self.secret) })
    let exporter = try #require(environment.exporter)
    #expect(exporter.endpoint == "http://c:4318")
    #expect(exporter.encoding == .protobuf)
    #expect(environment.serviceName == "checkout")
    var unset = variables
    unset[row.variable] = nil
    let expected = try #require(try OTelEnvironment(unset).exporter)
    #expect(exporter.timeout == expected.timeout)
    #expect(exporter.compression == expected.compression)
    #expect(exporter.headers == expected.headers)
  }

  @Test("OTEL_METRIC_EXPORT_INTERVAL and _TIMEOUT: milliseconds; the timeout bounds metrics only")
  func metricExport() throws {
    let unset = try OTelEnvironment(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
    #expect(unset.metricExportInterval == nil && unset.metricExportTimeout == nil)
    #expect(unset.exporter?.timeout(for: .metrics) == .seconds(30))
    let set = try OTelEnvironment([
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRIC_EXPORT_INTERVAL": "2500",
      "OTEL_METRIC_EXPORT_TIMEOUT": "5000",
    ])
    #expect(set.metricExportInterval == .milliseconds(2500))
    #expect(set.metricExportTimeout == .seconds(5))
    #expect(set.exporter?.timeout(for: .metrics) == .seconds(5))
    #expect(set.exporter?.timeout(for: .logs) == .seconds(30))
    // The shorter of the two; 0 is no limit of its own.
    let shorter = try OTelEnvironment([
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TIMEOUT": "1000",
      "OTEL_METRIC_EXPORT_TIMEOUT": "5000",
    ])
    #expect(shorter.exporter?.timeout(for: .metrics) == .seconds(1))
    let none = try OTelEnvironment([
      "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRIC_EXPORT_TIMEOUT": "0",
    ])
    #expect(none.metricExportTimeout == nil)
    #expect(none.exporter?.timeout(for: .metrics) == .seconds(30))
    for (variable, value) in [
      ("OTEL_METRIC_EXPORT_INTERVAL", "0"), ("OTEL_METRIC_EXPORT_INTERVAL", "soon"),
      ("OTEL_METRIC_EXPORT_TIMEOUT", "-1"),
    ] {
      #expect {
        try OTelEnvironment([variable: value])
      } throws: { error in
        (error as? ForwardingError)?.variable == variable
      }
      let lenient = OTelEnvironment.ignoringInvalid([variable: value])
      #expect(lenient.ignored.map(\.variable) == [variable])
      #expect(lenient.metricExportInterval == nil && lenient.metricExportTimeout == nil)
    }
  }

  @Test("ignoringInvalid: several bad values at once, an invalid endpoint leaves no exporter")
  func ignoringSeveral() {
    let environment = OTelEnvironment.ignoringInvalid([
      "OTEL_EXPORTER_OTLP_ENDPOINT": "not a url", "OTEL_EXPORTER_OTLP_TIMEOUT": "abc",
      "OTEL_EXPORTER_OTLP_HEADERS": "Authorization", "OTEL_SDK_DISABLED": "true",
    ])
    #expect(environment.exporter == nil)
    #expect(environment.isSDKDisabled)
    #expect(Set(environment.ignored.compactMap(\.variable)) == ["OTEL_EXPORTER_OTLP_ENDPOINT"])
    let valid = OTelEnvironment.ignoringInvalid(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
    #expect(valid.ignored.isEmpty)
  }

  struct ServiceCase: Sendable, CustomTestStringConvertible {
    var variables: [String: String]
    var name: String
    var testDescription: String { name }
  }

  @Test(
    "service name: OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES, then unknown_service:<exe>",
    arguments: [
      ServiceCase(variables: [:], name: "unknown_service:checkout-bin"),
      ServiceCase(variables: ["OTEL_SERVICE_NAME": ""], name: "unknown_service:checkout-bin"),
      ServiceCase(
        variables: [
          "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attrs,deployment.environment=prod"
        ],
        name: "from-attrs"),
      ServiceCase(
        variables: [
          "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attrs", "OTEL_SERVICE_NAME": "from-name",
        ], name: "from-name"),
      ServiceCase(variables: ["OTEL_SERVICE_NAME": "from-name"], name: "from-name"),
    ])
  func serviceName(_ row: ServiceCase) throws {
    let environment = try OTelEnvironment(row.variables, executableName: "checkout-bin")
    #expect(environment.serviceName == row.name)
    #expect(environment.resourceAttributes.first?.0 == "service.name")
    #expect(environment.resourceAttributes.first?.1 == row.name)
    #expect(environment.resourceAttributes.filter { $0.0 == "service.name" }.count == 1)
  }

  @Test("resource attributes are percent-decoded and keep their order")
  func resourceAttributes() throws {
    let environment = try OTelEnvironment([
      "OTEL_RESOURCE_ATTRIBUTES":
        "service.namespace=shop , deployment.environment=prod%20eu,note=a%2Cb%3Dc"
    ])
    #expect(
      environment.resourceAttributes.map(\.0) == [
        "service.name", "service.namespace", "deployment.environment", "note",
      ])
    #expect(environment.resourceAttributes.map(\.1).dropFirst() == ["shop", "prod eu", "a,b=c"])
  }

  @Test(
    "OTEL_SDK_DISABLED: only a case-insensitive true counts",
    arguments: [
      ("true", true), ("TRUE", true), ("True", true), ("false", false), ("1", false),
      ("yes", false), ("", false), (" true", false),
    ])
  func sdkDisabled(value: String, disabled: Bool) throws {
    #expect(try OTelEnvironment(["OTEL_SDK_DISABLED": value]).isSDKDisabled == disabled)
    #expect(try OTelEnvironment([:]).isSDKDisabled == false)
  }

  @Test("the default service name is unknown_service and the executable's name")
  func defaultServiceName() {
    #expect(OTelEnvironment.defaultServiceName(executableName: "app") == "unknown_service:app")
    #expect(OTelEnvironment.defaultServiceName(executableName: "") == "unknown_service")
    #expect(ForwarderOptions().resourceAttributes.first?.1.hasPrefix("unknown_service") == true)
  }

  @Test("an exporter built from the environment sends per-signal URLs and headers")
  func exporterSendsPerSignal() async throws {
    let configuration = try #require(
      try OTelEnvironment([
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/base",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://m:9999/ingest",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20\(Self.secret)",
        "OTEL_EXPORTER_OTLP_METRICS_HEADERS": "x-m=2",
        "OTEL_EXPORTER_OTLP_COMPRESSION": "none",
      ]
      ).exporter)
    let transport = RecordingTransport { _ in
      .success(TransportResponse(status: 200, headers: HTTPHeaders(), body: []))
    }
    let exporter = try OTLPExporter(configuration: configuration, transport: transport)
    _ = try await exporter.export(OTLPSamples.logsRequest, idempotencyKey: "k1")
    _ = try await exporter.export(OTLPSamples.metricsRequest, idempotencyKey: "k2")
    let sent = transport.sent.withLock { $0 }
    #expect(sent.map(\.url) == ["http://c:4318/base/v1/logs", "http://m:9999/ingest"])
    #expect(sent.first?.headers["Authorization"] == "Bearer \(Self.secret)")
    #expect(sent.last?.headers["Authorization"] == nil)
    #expect(sent.last?.headers["x-m"] == "2")
    #expect(!"\(configuration.headers)".contains(Self.secret))
  }
}
