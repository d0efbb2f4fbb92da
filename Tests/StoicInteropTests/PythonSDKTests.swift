import Foundation
import StoicCollector
import StoicForwarding
import StoicTestSupport
import Testing

/// The Python OpenTelemetry SDK (`opentelemetry-sdk` with the `opentelemetry-exporter-otlp-proto-http`
/// exporter, pinned in `scripts/requirements.txt`) as a producer: logs through the standard
/// `logging` bridge and a `BatchLogRecordProcessor`, a counter and a histogram through a
/// `MeterProvider`, sent as OTLP/HTTP protobuf to the example collector. Every record is stored
/// once and counted, the data points carry the SDK's sums, and `/stats` says so.
@Suite("Interop: the Python OpenTelemetry SDK to the example collector")
struct PythonSDKTests {
  static let records = 500

  static let script = #"""
    import logging, sys
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource

    endpoint, records = sys.argv[1], int(sys.argv[2])
    resource = Resource.create({"service.name": "python-sdk-peer", "service.instance.id": "python-sdk-1"})
    logs = LoggerProvider(resource=resource)
    logs.add_log_record_processor(BatchLogRecordProcessor(
        OTLPLogExporter(endpoint=endpoint + "/v1/logs"), max_export_batch_size=128))
    logger = logging.getLogger("peer")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(LoggingHandler(level=logging.INFO, logger_provider=logs))
    # One export, at shutdown: the interval is far longer than the run.
    reader = PeriodicExportingMetricReader(
        OTLPMetricExporter(endpoint=endpoint + "/v1/metrics"), export_interval_millis=3_600_000)
    metrics = MeterProvider(resource=resource, metric_readers=[reader])
    meter = metrics.get_meter("peer")
    counter = meter.create_counter("peer.records")
    sizes = meter.create_histogram("peer.size")
    for seq in range(records):
        logger.info("record %d", seq, extra={"seq": seq})
        counter.add(1, {"parity": "even" if seq % 2 == 0 else "odd"})
        sizes.record(seq % 37)
    logs.shutdown()
    metrics.shutdown()
    print(f"sent {records} records")
    """#

  @Test("logs and metrics from the SDK's OTLP/HTTP exporters: every record stored and counted")
  func pythonSDK() async throws {
    let started = ContinuousClock.now
    try TestPython.require(["opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http"])
    let directory = try Peers.scratch("python-sdk")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Peers.collector(directory)
    try Data(Self.script.utf8).write(to: URL(fileURLWithPath: directory + "/peer.py"))
    let run = try TestPython.run([
      directory + "/peer.py", collector.baseURL, String(Self.records),
    ])
    let stats = try await Peers.stats(collector)
    let counts = try Peers.sequences(collector)
    let metrics = try collector.archive.metrics()
    try await collector.stop()

    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("sent \(Self.records) records"), "\(run.output)")
    // The SDK logs a failed export and goes on: its output must hold no such line.
    #expect(!run.output.contains("Failed to export"), "\(run.output)")
    #expect(counts.keys.sorted() == Array(0..<Self.records), "\(counts.count) distinct seqs")
    #expect(counts.values.allSatisfy { $0 == 1 }, "a record stored twice")
    #expect(stats["logRecords"] as? Int == Self.records, "\(stats)")
    #expect(stats["rejectedRequests"] as? Int == 0, "\(stats)")
    // Two counter points (even, odd) and one histogram point, each exported once.
    #expect(stats["dataPoints"] as? Int == 3, "\(stats)")
    let producers = stats["producers"] as? [String: [String: Int]]
    #expect(producers?["python-sdk-1"]?["logRecords"] == Self.records, "\(stats)")
    #expect(producers?["python-sdk-1"]?["dataPoints"] == 3, "\(stats)")
    var counted: Int64 = 0
    var histogramCount: UInt64 = 0
    for received in metrics {
      switch received.metric.data {
      case .sum(let sum) where received.metric.name == "peer.records":
        for point in sum.dataPoints {
          if case .int(let value)? = point.value { counted += value }
        }
      case .histogram(let histogram) where received.metric.name == "peer.size":
        histogramCount += histogram.dataPoints.reduce(0) { $0 + $1.count }
      default: break
      }
    }
    #expect(counted == Int64(Self.records), "the counter's points add up to \(counted)")
    #expect(histogramCount == UInt64(Self.records), "the histogram counted \(histogramCount)")
    print(
      "interop python sdk: \(counts.count)/\(Self.records) log records once each in "
        + "\(stats["logBatches"] ?? "?") batches, \(stats["dataPoints"] ?? "?") data points "
        + "(counter total \(counted), histogram count \(histogramCount)), "
        + "\(ContinuousClock.now - started)")
  }
}

/// The Python SDK's OTLP/HTTP trace exporter as a producer of spans: a `TracerProvider` with a
/// `BatchSpanProcessor`, a root span and its children, sent as protobuf to the example
/// collector, which stores each span once and counts them in `/stats`.
@Suite("Interop: the Python OpenTelemetry SDK's spans to the example collector")
struct PythonSDKTracesTests {
  static let spans = 300

  static let script = #"""
    import sys
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource

    endpoint, spans = sys.argv[1], int(sys.argv[2])
    resource = Resource.create({"service.name": "python-sdk-peer", "service.instance.id": "python-sdk-1"})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(
        OTLPSpanExporter(endpoint=endpoint + "/v1/traces"), max_export_batch_size=64))
    tracer = provider.get_tracer("peer")
    with tracer.start_as_current_span("root") as root:
        for seq in range(spans - 1):
            with tracer.start_as_current_span("child", attributes={"seq": seq}):
                pass
    provider.shutdown()
    print(f"sent {spans} spans")
    """#

  @Test("spans from the SDK's OTLP/HTTP trace exporter: every span stored once and counted")
  func pythonSDKSpans() async throws {
    try TestPython.require(["opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http"])
    let directory = try Peers.scratch("python-sdk-traces")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Peers.collector(directory)
    try Data(Self.script.utf8).write(to: URL(fileURLWithPath: directory + "/peer.py"))
    let run = try TestPython.run([directory + "/peer.py", collector.baseURL, String(Self.spans)])
    let stats = try await Peers.stats(collector)
    let stored = try collector.archive.spans()
    try await collector.stop()

    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("Failed to export"), "\(run.output)")
    #expect(stats["spans"] as? Int == Self.spans, "\(stats)")
    #expect(stats["rejectedRequests"] as? Int == 0, "\(stats)")
    let producers = stats["producers"] as? [String: [String: Int]]
    #expect(producers?["python-sdk-1"]?["spans"] == Self.spans, "\(stats)")
    #expect(stored.count == Self.spans)
    #expect(Set(stored.map(\.span.spanId)).count == Self.spans, "a span stored twice")
    let root = stored.first { $0.span.name == "root" }
    #expect(root?.span.parentSpanId.isEmpty == true)
    let children = stored.filter { $0.span.name == "child" }
    #expect(children.allSatisfy { $0.span.parentSpanId == root?.span.spanId })
    #expect(children.allSatisfy { $0.span.traceId == root?.span.traceId })
    let seqs = Set(
      children.compactMap { child -> Int64? in
        if case .int(let seq)? = child.span.attribute("seq") { return seq }
        return nil
      })
    #expect(seqs == Set((0..<Int64(Self.spans - 1))))
  }
}
