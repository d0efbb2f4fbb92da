import StoicStore
import StoicTesting

@testable import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening and reading spools in the tests.
enum SpoolTestSupport {
  /// Where the tests' spools live on a simulated disk.
  static let root = "/data/telemetry"

  /// Deterministic options for the simulated disk: maintenance (retention, recovery, events)
  /// runs on the logging thread; the group commit's background sync is an hour away, so only
  /// durable records, flushes and closes sync; recovery is tried at once, whatever the free
  /// space.
  static func options() -> TelemetryOptions {
    TelemetryOptions(
      logs: LogSpoolOptions(
        maxDelay: .seconds(3600), recoveryInterval: .zero, resumeFreeSpace: 0,
        backgroundMaintenance: false),
      metrics: MetricsOptions(
        flushInterval: nil, liveFileSize: 32 << 10,
        journal: JournalOptions(
          syncPolicy: .never, segmentSize: 1 << 20, backgroundMaintenance: false)))
  }

  /// Opens the spool at ``root`` on `disk`.
  static func open(
    _ disk: any FileSystem, options: TelemetryOptions = options(), events: EventSink = .discard,
    root: String = root
  ) throws(StoreError) -> TelemetrySpool {
    try TelemetrySpool.open(at: root, options: options, fileSystem: disk, events: events)
  }

  /// Every decodable record of the spool, in order.
  static func records(_ spool: TelemetrySpool) throws(StoreError) -> [LogRecord] {
    try spool.logs.entries().compactMap(\.record)
  }

  /// The messages of the app's records (not the spool's events) that a crash keeping nothing
  /// pending would leave on `disk`: opens a spool on that image, reads, closes.
  static func messages(onDurableCopyOf disk: SimulatedFileSystem) throws(StoreError) -> [String] {
    let spool = try open(disk.crashedDurableOnly())
    defer { try? spool.close() }
    return try records(spool).filter { $0.label != LogSpool.eventLabel }.map(\.message)
  }
}

extension SpoolTestSupport {
  /// Opens the spool at `root` on the real disk again, retrying for up to 10 s while it is
  /// `.locked`: a process that another test forks meanwhile shares this process's descriptors,
  /// the spool's lock among them, until it replaces itself with its program (they are
  /// close-on-exec), which on a busy machine can take a while.
  static func reopen(at root: String, options: TelemetryOptions = TelemetryOptions())
    throws(StoreError) -> TelemetrySpool
  {
    var attempts = 0
    while true {
      do throws(StoreError) {
        return try TelemetrySpool.open(at: root, options: options)
      } catch  where error.code == .locked && attempts < 1000 {
        attempts += 1
        usleep(10_000)
      }
    }
  }
}
