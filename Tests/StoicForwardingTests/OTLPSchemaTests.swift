import Foundation
import StoicForwarding
import StoicTestSupport
import Testing

/// The bodies the exporter sends, checked against the real schema: Python's `opentelemetry-proto`
/// package (the generated classes of opentelemetry-proto) parses them with
/// `ParseFromString` and `json_format.Parse`, re-encodes them, and this package decodes
/// Python's bytes back to the same requests.
///
/// Runs the tests' Python (``TestPython``: `.build/venv`, made by `./scripts/bootstrap`). Without
/// it the test fails, saying to run `./scripts/bootstrap`, unless `STOIC_SKIP_SCHEMA_CHECK=1`
/// skips it on purpose.
@Suite("OTLP bodies against the opentelemetry-proto schema")
struct OTLPSchemaTests {
  static let skipped = ProcessInfo.processInfo.environment["STOIC_SKIP_SCHEMA_CHECK"] == "1"

  /// Parses each body, compares Python's reading of the protobuf and of the JSON, checks
  /// Python's serialization is byte for byte ours, and writes Python's re-encodings.
  static let script = #"""
    import base64, json, sys
    from google.protobuf import json_format
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2 as logs
    from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2 as metrics

    directory = sys.argv[1]
    kinds = {
        "logs": logs.ExportLogsServiceRequest,
        "metrics": metrics.ExportMetricsServiceRequest,
        "logs-response": logs.ExportLogsServiceResponse,
        "metrics-response": metrics.ExportMetricsServiceResponse,
    }
    ID_KEYS = ("traceId", "spanId")

    def convert_ids(value, to_hex):
        # OTLP JSON writes trace and span ids in hex; protobuf's JSON mapping uses base64.
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in ID_KEYS and isinstance(item, str):
                    raw = bytes.fromhex(item) if not to_hex else base64.b64decode(item)
                    out[key] = raw.hex() if to_hex else base64.b64encode(raw).decode()
                else:
                    out[key] = convert_ids(item, to_hex)
            return out
        if isinstance(value, list):
            return [convert_ids(item, to_hex) for item in value]
        return value

    failures = []
    for kind, cls in kinds.items():
        ours_pb = open(f"{directory}/{kind}.pb", "rb").read()
        ours_json = open(f"{directory}/{kind}.json").read()
        from_pb = cls()
        from_pb.ParseFromString(ours_pb)  # raises on anything malformed
        json_format.Parse(ours_json, cls())  # raises on unknown names and wrong types
        from_json = json_format.ParseDict(convert_ids(json.loads(ours_json), to_hex=False), cls())
        if from_pb != from_json:
            failures.append(f"{kind}: the protobuf and the JSON body differ in meaning")
        as_dict = json_format.MessageToDict(from_pb, use_integers_for_enums=True)
        if convert_ids(as_dict, to_hex=True) != json.loads(ours_json):
            failures.append(f"{kind}: Python reads the protobuf body as\n{json.dumps(as_dict, sort_keys=True)}")
        if from_pb.SerializeToString(deterministic=True) != ours_pb:
            failures.append(f"{kind}: Python serializes the message to other bytes")
        open(f"{directory}/{kind}.python.pb", "wb").write(from_pb.SerializeToString())
        with open(f"{directory}/{kind}.python.json", "w") as out:
            json.dump(convert_ids(as_dict, to_hex=True), out)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("schema check passed")
    """#

  @Test(
    "logs and metrics, protobuf and JSON, as the exporter sends them",
    .disabled(if: skipped, "STOIC_SKIP_SCHEMA_CHECK=1"))
  func schema() throws {
    try TestPython.require(["opentelemetry.proto", "google.protobuf"])
    let directory = NSTemporaryDirectory() + "stoic-schema-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // The bodies as the exporter builds them (gzip-compressed, then decompressed here).
    func body(_ message: some OTLPMessage, _ signal: OTLPSignal, _ encoding: OTLPEncoding) throws
      -> [UInt8]
    {
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(
          endpoint: "http://127.0.0.1:4318", encoding: encoding),
        transport: RecordingTransport { _ in .failure(.timeout) })
      let request = try exporter.request(for: message, signal: signal, idempotencyKey: "schema")
      #expect(request.headers["Content-Type"] == encoding.contentType)
      return try Gzip.decompress(request.body, maxOutputSize: 1 << 24)
    }
    let logsResponse = OTLP.ExportLogsServiceResponse(
      partialSuccess: OTLP.ExportLogsPartialSuccess(rejectedLogRecords: 2, errorMessage: "too old"))
    let metricsResponse = OTLP.ExportMetricsServiceResponse(
      partialSuccess: OTLP.ExportMetricsPartialSuccess(rejectedDataPoints: 1, errorMessage: "NaN"))
    for encoding in OTLPEncoding.allCases {
      let suffix = encoding == .protobuf ? "pb" : "json"
      let files: [(String, [UInt8])] = [
        ("logs", try body(OTLPSamples.logsRequest, .logs, encoding)),
        ("metrics", try body(OTLPSamples.metricsRequest, .metrics, encoding)),
        ("logs-response", logsResponse.encoded(as: encoding)),
        ("metrics-response", metricsResponse.encoded(as: encoding)),
      ]
      for (name, bytes) in files {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name).\(suffix)"))
      }
    }
    try Data(Self.script.utf8).write(to: URL(fileURLWithPath: directory + "/check.py"))
    let run = try TestPython.run([directory + "/check.py", directory])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("schema check passed"))
    guard run.status == 0 else { return }

    // What Python wrote, read back by this package.
    func read(_ name: String) throws -> [UInt8] {
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
    }
    #expect(
      try OTLP.ExportLogsServiceRequest(protobuf: read("logs.python.pb")) == OTLPSamples.logsRequest
    )
    #expect(
      try OTLP.ExportLogsServiceRequest(json: read("logs.python.json")) == OTLPSamples.logsRequest)
    #expect(
      try OTLP.ExportMetricsServiceRequest(protobuf: read("metrics.python.pb"))
        == OTLPSamples.metricsRequest)
    #expect(
      try OTLP.ExportMetricsServiceRequest(json: read("metrics.python.json"))
        == OTLPSamples.metricsRequest)
    #expect(
      try OTLP.ExportLogsServiceResponse(protobuf: read("logs-response.python.pb")) == logsResponse)
    #expect(
      try OTLP.ExportMetricsServiceResponse(json: read("metrics-response.python.json"))
        == metricsResponse)
  }
}
