import Foundation
import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTestSupport
import StoicTesting
import Testing

/// The bodies the forwarder sends, captured on the way out, checked against the real schema in
/// both encodings: Python's `opentelemetry-proto` parses each protobuf body with
/// `ParseFromString` and each JSON body with `json_format.Parse` (which rejects unknown names and
/// wrong types), and the two encodings of each batch must mean the same.
///
/// Runs the tests' Python (``TestPython``), as ``OTLPSchemaTests`` does
/// (`STOIC_SKIP_SCHEMA_CHECK=1` skips it on purpose).
@Suite("Forwarder bodies against the opentelemetry-proto schema")
struct ForwarderSchemaTests {
  static let script = #"""
    import base64, json, sys, glob, os
    from google.protobuf import json_format
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2 as logs
    from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2 as metrics

    directory = sys.argv[1]
    kinds = {"logs": logs.ExportLogsServiceRequest, "metrics": metrics.ExportMetricsServiceRequest}
    failures = []
    checked = 0
    counts = {}
    for path in sorted(glob.glob(f"{directory}/*.pb")):
        name = os.path.basename(path)[:-3]
        cls = kinds[name.split("-")[0]]
        from_pb = cls()
        from_pb.ParseFromString(open(path, "rb").read())
        # OTLP/JSON writes trace and span ids in hex, where protobuf's JSON mapping has base64.
        document = json.load(open(f"{directory}/{name}.json"))
        for group in document.get("resourceLogs", []):
            for scoped in group.get("scopeLogs", []):
                for record in scoped.get("logRecords", []):
                    for key in ("traceId", "spanId"):
                        if key in record:
                            record[key] = base64.b64encode(bytes.fromhex(record[key])).decode()
        from_json = json_format.Parse(json.dumps(document), cls())
        if from_pb != from_json:
            failures.append(f"{name}: the protobuf and the JSON body differ in meaning")
        if from_pb.ByteSize() == 0:
            failures.append(f"{name}: empty")
        is_logs = name.startswith("logs")
        for group in (from_pb.resource_logs if is_logs else from_pb.resource_metrics):
            resource_keys = [a.key for a in group.resource.attributes]
            if len(resource_keys) != len(set(resource_keys)) or "" in resource_keys:
                failures.append(f"{name}: a resource key twice or empty: {resource_keys}")
            resource = {a.key: a.value.string_value for a in group.resource.attributes}
            if resource.get("team") != "later":
                failures.append(f"{name}: the resource's team is not the later value")
            sdk = [resource.get(f"telemetry.sdk.{k}") for k in ("name", "language", "version")]
            if sdk[:2] != ["stoic", "swift"] or not sdk[2]:
                failures.append(f"{name}: telemetry.sdk.* missing from the resource")
            for scoped in (group.scope_logs if is_logs else group.scope_metrics):
                if scoped.scope.name != "stoic" or not scoped.scope.version:
                    failures.append(f"{name}: the scope has no name or version")
                for record in (scoped.log_records if is_logs else []):
                    keys = [a.key for a in record.attributes]
                    if len(keys) != len(set(keys)) or "" in keys:
                        failures.append(f"{name}: a record with a key twice or an empty key: {keys}")
                    values = {a.key: a.value for a in record.attributes}
                    if values.get("log.label") and values["log.label"].string_value == "forged":
                        failures.append(f"{name}: a metadata key won over the derived log.label")
                    if record.dropped_attributes_count == 4:
                        counts["dropped"] = counts.get("dropped", 0) + 1
                    if "code.line.number" not in values:
                        failures.append(f"{name}: a record without code.line.number")
                    if set(values) & {"code.filepath", "code.function", "code.lineno"}:
                        failures.append(f"{name}: a record with deprecated code.* names")
                    for key in ("code.file.path", "code.function.name"):
                        if key in values:
                            counts[key] = counts.get(key, 0) + 1
                    if values.get("exception.type", None) is not None and values.get("exception.message"):
                        counts["exception"] = counts.get("exception", 0) + 1
                    if len(record.trace_id) == 16 and len(record.span_id) == 8:
                        counts["traced"] = counts.get("traced", 0) + 1
        checked += 1
    print("counts: " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if counts.get("code.file.path", 0) == 0 or counts.get("code.function.name", 0) == 0:
        failures.append("no record carried code.file.path and code.function.name")
    if counts.get("traced", 0) == 0:
        failures.append("no record carried trace_id and span_id")
    if counts.get("dropped", 0) == 0:
        failures.append("no record counted its four dropped metadata keys")
    if counts.get("exception", 0) == 0:
        failures.append("no record carried exception.type and exception.message")
    if failures or checked == 0:
        print("\n".join(failures) or "no bodies")
        sys.exit(1)
    print(f"schema check passed: {checked} batches")
    """#

  /// The bodies a forwarder sends for the spool on `disk`, in `encoding`, by batch key.
  static func bodies(_ disk: SimulatedFileSystem, _ encoding: OTLPEncoding) async throws
    -> [(key: String, path: String, body: [UInt8])]
  {
    let spool = try ForwarderFixture.openSpool(disk)
    let receiver = FakeReceiver()
    var options = ForwarderFixture.options(maxRecords: 7)
    // A key given twice, and an empty one: sent once with the later value, and not at all.
    options.resourceAttributes += [("team", "first"), ("team", "later"), ("", "empty")]
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: ForwarderFixture.exporter(receiver, encoding: encoding),
      options: options, fileSystem: disk)
    try await forwarder.drain()
    try await forwarder.close()
    try spool.close()
    return receiver.state.withLock { $0.requests }.map { ($0.key, $0.path, $0.body) }
  }

  @Test(
    "every batch, protobuf and JSON, parses into the OTLP requests and means the same",
    .disabled(if: OTLPSchemaTests.skipped, "STOIC_SKIP_SCHEMA_CHECK=1"))
  func schema() async throws {
    try TestPython.require(["opentelemetry.proto", "google.protobuf"])
    let disk = SimulatedFileSystem()
    let spool = try ForwarderFixture.openSpool(disk)
    for index in 0..<20 { ForwarderFixture.log(spool, index) }
    spool.logs.log(level: .critical, label: "edge", message: "", metadata: ["empty": .array([])])
    spool.logs.log(
      level: .error, label: "failing", message: "a call failed",
      metadata: ["exception.type": .string("MyError"), "exception.message": .string("boom")])
    spool.logs.log(
      level: .info, label: "traced", message: "in a span",
      metadata: [
        "trace_id": .string("4bf92f3577b34da6a3ce929d0e0e4736"),
        "span_id": .string("00f067aa0ba902b7"), "trace_flags": .string("1"),
      ])
    // Metadata keys that are names Stoic derives, and an empty one: dropped and counted.
    spool.logs.log(
      level: .info, label: "clash", message: "keys",
      metadata: [
        "log.label": .string("forged"), "stoic.sequence": .string("7"),
        "code.file.path": .string("Forged.swift"), "": .string("empty"), "user": .string("u"),
      ])
    spool.metrics.counter(label: "c", dimensions: [("k", "v")]).increment(by: 5)
    spool.metrics.floatingPointCounter(label: "f").increment(by: 1.5)
    spool.metrics.gauge(label: "g").set(-2.25)
    let histogram = spool.metrics.histogram(label: "h")
    for value in [1.0, 30, 700, 20_000] { histogram.record(value) }
    try spool.close()
    // The same spool twice: once sent as protobuf, once (a copy) as JSON.
    let protobuf = try await Self.bodies(disk.copy(), .protobuf)
    let json = try await Self.bodies(disk.copy(), .json)
    #expect(protobuf.map(\.key) == json.map(\.key))
    #expect(Set(protobuf.map(\.path)) == ["/v1/logs", "/v1/metrics"])

    let directory = NSTemporaryDirectory() + "stoic-forwarder-schema-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (index, (sent, other)) in zip(protobuf, json).enumerated() {
      let name = "\(sent.path == "/v1/logs" ? "logs" : "metrics")-\(index)"
      try Data(sent.body).write(to: URL(fileURLWithPath: "\(directory)/\(name).pb"))
      try Data(other.body).write(to: URL(fileURLWithPath: "\(directory)/\(name).json"))
    }
    try Data(Self.script.utf8).write(to: URL(fileURLWithPath: directory + "/check.py"))
    let run = try TestPython.run([directory + "/check.py", directory])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("schema check passed: \(protobuf.count) batches"), "\(run.output)")
  }
}
