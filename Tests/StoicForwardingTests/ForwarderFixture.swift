import StoicForwarding
import StoicStore
import StoicTelemetry
import StoicTesting

/// Spools and forwarders on the simulated disk for the forwarder's tests.
enum ForwarderFixture {
  static let root = "/data/telemetry"

  /// Deterministic spool options: maintenance inline, no background sync, no metrics timer.
  static func spoolOptions() -> TelemetryOptions {
    TelemetryOptions(
      logs: LogSpoolOptions(
        maxDelay: .seconds(3600), segmentSize: 1 << 12, recoveryInterval: .zero,
        resumeFreeSpace: 0, backgroundMaintenance: false),
      metrics: MetricsOptions(
        flushInterval: nil, liveFileSize: 32 << 10,
        journal: JournalOptions(
          syncPolicy: .never, segmentSize: 1 << 20, backgroundMaintenance: false)))
  }

  static func openSpool(_ disk: any FileSystem) throws(StoreError) -> TelemetrySpool {
    try TelemetrySpool.open(at: root, options: spoolOptions(), fileSystem: disk)
  }

  /// Logs app record number `index`: its `seq` metadata says which it is.
  @discardableResult
  static func log(_ spool: TelemetrySpool, _ index: Int) -> UInt64? {
    spool.logs.log(
      level: [.info, .debug, .warning, .error][index % 4], label: "app",
      message: "record \(index)",
      metadata: [
        "seq": .stringConvertible(String(index)), "user": .string("u\(index % 3)"),
        "nested": .dictionary(["b": .string("2"), "a": .array([.string("x"), .string("y")])]),
      ], source: "tests", file: "ForwarderTests.swift", function: "log", line: UInt(index))
  }

  /// Forwarder options for tests: small batches formed 8 at a time (a few dozen records make
  /// several rounds), retries that do not wait, one batch in flight unless told (a receiver's
  /// script answers requests in the order they come).
  static func options(maxRecords: Int = 5, maxAttempts: Int = 3, inFlight: Int = 1)
    -> ForwarderOptions
  {
    var outbox = OutboxOptions()
    outbox.clock = OutboxClock(now: { 1_700_000_000_000 }, sleep: { _ in })
    outbox.retryPolicy = RetryPolicy(
      initialDelay: .milliseconds(1), maxDelay: .milliseconds(1), maxAttempts: maxAttempts,
      drainBudget: 50)
    outbox.random = OutboxRandom { 7 }
    return ForwarderOptions(
      maxRecords: maxRecords, lookahead: 8, inFlight: inFlight,
      resourceAttributes: [("service.name", "forwarder-tests")], outbox: outbox)
  }

  static func exporter(
    _ receiver: FakeReceiver, encoding: OTLPEncoding = .protobuf,
    compression: OTLPCompression = .gzip
  ) throws -> OTLPExporter {
    try OTLPExporter(
      configuration: OTLPExporterConfiguration(
        endpoint: "http://127.0.0.1:4318", encoding: encoding, compression: compression),
      transport: receiver)
  }

  static func open(
    _ spool: TelemetrySpool, _ receiver: FakeReceiver, disk: any FileSystem,
    options: ForwarderOptions = options(), events: EventSink = .discard
  ) async throws -> Forwarder {
    try await Forwarder.open(
      spool: spool, exporter: try exporter(receiver), options: options, fileSystem: disk,
      events: events)
  }

  /// A spool on a new simulated disk holding app records `0..<count`, flushed.
  static func filledSpool(_ count: Int) throws -> (SimulatedFileSystem, TelemetrySpool) {
    let disk = SimulatedFileSystem()
    let spool = try openSpool(disk)
    for index in 0..<count { log(spool, index) }
    try spool.flush()
    return (disk, spool)
  }

  /// Logs app records `records` into a spool on a new simulated disk, opens a forwarder on it
  /// sending to a receiver with `script`, runs `body`, then closes both.
  static func run(
    records: some Sequence<Int>, script: [FakeReceiver.Answer] = [], events: EventLog? = nil,
    _ body: (TelemetrySpool, FakeReceiver, Forwarder) async throws -> Void
  ) async throws {
    let disk = SimulatedFileSystem()
    let spool = try openSpool(disk)
    for index in records { log(spool, index) }
    let receiver = FakeReceiver(script: script)
    let forwarder = try await open(
      spool, receiver, disk: disk, events: events?.sink ?? .discard)
    try await body(spool, receiver, forwarder)
    try await forwarder.close()
    try spool.close()
  }

  /// The `seq` of every app record the receiver stored, in order.
  static func appSequences(_ receiver: FakeReceiver) throws -> [Int] {
    try receiver.storedLogRecords().filter { $0.string("log.label") == "app" }.compactMap {
      $0.string("seq").flatMap { Int($0) }
    }
  }
}

/// Collects events.
final class EventLog: Sendable {
  let events = SleepingLock<[StoreEvent]>([])
  var sink: EventSink { EventSink { [events] event in events.withLock { $0.append(event) } } }
  func named(_ definition: EventDefinition) -> [StoreEvent] {
    events.withLock { $0 }.filter { $0.definition == definition }
  }
}
