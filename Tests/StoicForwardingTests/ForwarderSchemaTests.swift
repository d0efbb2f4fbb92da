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
    import json, sys, glob, os
    from google.protobuf import json_format
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2 as logs
    from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2 as metrics

    directory = sys.argv[1]
    kinds = {"logs": logs.ExportLogsServiceRequest, "metrics": metrics.ExportMetricsServiceRequest}
    failures = []
    checked = 0
    for path in sorted(glob.glob(f"{directory}/*.pb")):
        name = os.path.basename(path)[:-3]
        cls = kinds[name.split("-")[0]]
        from_pb = cls()
        from_pb.ParseFromString(open(path, "rb").read())
        from_json = json_format.Parse(open(f"{directory}/{name}.json").read(), cls())
        if from_pb != from_json:
            failures.append(f"{name}: the protobuf and the JSON body differ in meaning")
        if from_pb.ByteSize() == 0:
            failures.append(f"{name}: empty")
        checked += 1
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
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: ForwarderFixture.exporter(receiver, encoding: encoding),
      options: ForwarderFixture.options(maxRecords: 7), fileSystem: disk)
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
