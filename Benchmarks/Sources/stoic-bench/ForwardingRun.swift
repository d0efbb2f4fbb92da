import BenchKit
import StoicCollector
import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting

/// One end-to-end forwarding run: a telemetry spool filled with log records and its sealed
/// segments compressed (untimed; a backlog's were compressed long before it is drained), the
/// example collector started in-process on an ephemeral 127.0.0.1 port, and one timed
/// `Forwarder.drain()` of the whole spool into it (the forwarder's default options: 32 batches
/// formed per round, 4 in flight). The spool and the forwarder's outbox write
/// through one `MeteredFileSystem`, so the bytes forwarding writes are counted apart from the
/// bytes spooling wrote.
struct ForwardingRun {
  /// What one run measured.
  struct Sample {
    let records: Int
    let seconds: Double
    /// One record's size in the spool: its encoding (`LogRecordFormat`), without the
    /// journal's frame, so the ratios below are not flattered by the spool's own overheads.
    let recordBytes: Int
    /// Bytes written to the spool while it was filled (records and their frames, sync
    /// markers, compressed copies of sealed segments).
    let spooledBytes: UInt64
    /// Bytes written during the drain: the outbox's entries and the spool's checkpoints when
    /// the records left it.
    let forwardingBytes: UInt64
    /// CPU seconds the process used during the drain (sender and collector, all threads).
    let cpuSeconds: Double

    var recordsPerSecond: Double { Double(records) / seconds }
    /// Bytes forwarding wrote per forwarded record.
    var forwardingBytesPerRecord: Double { Double(forwardingBytes) / Double(records) }
    /// Bytes spooling wrote per record.
    var spooledBytesPerRecord: Double { Double(spooledBytes) / Double(records) }
    /// Disk bytes per forwarded record (the record itself plus what forwarding wrote for it)
    /// ÷ its spooled size.
    var writeCost: Double { (Double(recordBytes) + forwardingBytesPerRecord) / Double(recordBytes) }
    /// Megabytes (10^6 bytes) of spooled records drained per second.
    var megabytesPerSecond: Double { Double(records * recordBytes) / 1e6 / seconds }
    /// CPU microseconds per forwarded record, sender and collector together.
    var cpuMicrosecondsPerRecord: Double { cpuSeconds * 1e6 / Double(records) }
  }

  let encoding: OTLPEncoding
  let compression: OTLPCompression
  /// Records per batch (the forwarder's default is 1,000); batches up to 16 MiB.
  var maxRecords = ForwarderOptions().maxRecords
  /// Whether batches go to the example collector (`true`) or to a ``NullReceiver``.
  var toCollector = true
  /// What the spool is filled with: log records, or spans (each a start and an end record,
  /// forwarded as one OTLP span).
  var signal = Signal.logs
  /// Whether the spool is drained (`false`: filled and closed only, for a profiler's baseline).
  var drains = true

  /// The signal a run forwards.
  enum Signal {
    /// Log records (the benchmark's log line).
    case logs
    /// Spans: a server span with three attributes, ten to a trace.
    case spans
  }

  /// Fills a spool in `directory` with at least `records` records or `bytes` spooled bytes
  /// (whichever comes later), then times its drain into a collector.
  func measure(in directory: String, records: Int, bytes: UInt64 = 0) throws -> Sample {
    let disk = MeteredFileSystem(PosixFileSystem())
    var spoolOptions = TelemetryOptions(
      logs: LogSpoolOptions(byteLimit: max(256 << 20, bytes * 2)))
    if signal == .spans { spoolOptions.spans = spoolOptions.logs }
    let spool = try TelemetrySpool.open(
      at: directory + "/spool", options: spoolOptions, fileSystem: disk)
    let written =
      signal == .spans
      ? try Self.fillSpans(spool, spans: records)
      : try Self.fill(spool, records: records, bytes: bytes)
    // A backlog is as old as the outage: its sealed segments were compressed long before the
    // drain, not during it.
    try spool.logs.compressSealedSegments()
    try spool.spans?.compressSealedSegments()
    let spooled = disk.reset()
    let encoding = encoding
    let compression = compression
    let options = ForwarderOptions(maxRecords: maxRecords, maxBytes: 16 << 20)
    let toCollector = toCollector
    guard drains else {
      try spool.close()
      return Sample(
        records: written, seconds: 1, recordBytes: Self.recordBytes, spooledBytes: 0,
        forwardingBytes: 0, cpuSeconds: 0)
    }
    let (report, seconds, cpuSeconds) = try AsyncBridge.wait {
      let collector = try await Collector.start(
        CollectorOptions(dataDirectory: directory + "/collector"))
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(
          endpoint: collector.baseURL, encoding: encoding, compression: compression),
        transport: toCollector ? DefaultTransport() : NullReceiver())
      let forwarder = try await Forwarder.open(
        spool: spool, exporter: exporter, options: options, fileSystem: disk)
      let start = MonotonicClock.now()
      let cpuStart = ProcessCPU.seconds()
      let report = try await forwarder.drain()
      let seconds = MonotonicClock.seconds(since: start)
      let cpuSeconds = ProcessCPU.seconds() - cpuStart
      try await forwarder.close()
      try await collector.stop()
      return (report, seconds, cpuSeconds)
    }
    let forwarding = disk.reset()
    try spool.close()
    let delivered = signal == .spans ? report.spansDelivered : report.logRecordsDelivered
    guard delivered >= written, report.batchesParked == 0 else {
      throw BenchError(
        "forwarding: \(delivered) of \(written) \(signal) delivered, "
          + "\(report.batchesParked) batches parked (\(report.haltedBecause ?? "no reason"))")
    }
    return Sample(
      records: delivered, seconds: seconds,
      recordBytes: signal == .spans ? Self.spanBytes : Self.recordBytes,
      spooledBytes: spooled.bytesWritten,
      forwardingBytes: forwarding.bytesWritten, cpuSeconds: cpuSeconds)
  }

  /// The call site every record names, so that each record's size is known.
  static let file = "Orders.swift"
  static let function = "serve(_:)"
  static let line: UInt = 42

  /// The encoded size of every record `fill` writes (its messages are all 60 bytes).
  static let recordBytes: Int = {
    let line = LogLine()
    return LogRecordFormat.encode(
      LogRecord(
        timeNanoseconds: 0, level: .info, label: line.label, message: line.message(0),
        metadata: line.metadata, source: line.source, file: file, function: function,
        line: Self.line)
    ).count
  }()

  /// The span every span of `fillSpans` is, `index` naming its ids and times.
  static func span(_ index: Int) -> SpanEnd {
    let start = SpanStart(
      traceID: TraceID(high: 0x5354_4f49_4300_0000, low: UInt64(index / 10 + 1)),
      spanID: SpanID(UInt64(index + 1)),
      parentSpanID: SpanID(index % 10 == 0 ? 0 : UInt64(index / 10 * 10 + 1)), kind: .server,
      name: "GET /users", startTimeNanoseconds: 1_790_000_000_000_000_000 + Int64(index) * 1_000)
    return SpanEnd(
      start: start, endTimeNanoseconds: start.startTimeNanoseconds + 250_000,
      attributes: [
        "http.request.method": .string("GET"), "http.route": .string("/users"),
        "http.response.status_code": .int(200),
      ])
  }

  /// The encoded size of a span's two records (its start and its end).
  static let spanBytes: Int = {
    let end = span(0)
    return SpanRecordFormat.encode(end.start).count + SpanRecordFormat.encode(end).count
  }()

  /// Starts and ends `spans` spans (``span(_:)``) in the span spool, flushing every 10,000;
  /// returns how many.
  private static func fillSpans(_ spool: TelemetrySpool, spans: Int) throws -> Int {
    guard let spanSpool = spool.spans else { throw BenchError("forwarding: no span spool") }
    for index in 0..<spans {
      let end = span(index)
      guard spanSpool.start(end.start) != nil, spanSpool.end(end) != nil else {
        throw BenchError("forwarding: the spool dropped a span")
      }
      if index % 10_000 == 9_999 { try spool.flush() }
    }
    try spool.flush()
    return spans
  }

  /// Logs the benchmark's log line at the info level (buffered, synced by `flush`) until
  /// `records` are written and `bytes` of records spooled; returns how many were written.
  private static func fill(_ spool: TelemetrySpool, records: Int, bytes: UInt64) throws -> Int {
    let line = LogLine()
    var written = 0
    repeat {
      for index in 0..<10_000 {
        let sequence = spool.logs.log(
          level: .info, label: line.label, message: line.message(written + index),
          metadata: line.metadata, source: line.source, file: file, function: function,
          line: Self.line)
        if sequence == nil { throw BenchError("forwarding: the spool dropped a record") }
      }
      written += 10_000
      try spool.flush()
    } while written < records || UInt64(written * recordBytes) < bytes
    return written
  }
}
